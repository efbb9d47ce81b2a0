import { randomUUID } from 'node:crypto';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import type { Clock } from './clock';
import {
  insertRefreshToken,
  lockRefreshToken,
  markRefreshTokenUsed,
  revokeFamily,
  revokeUserRefreshTokens,
} from './refresh-token.repository';
import type { SessionUsers } from './session-users';
import type { TokenService } from './tokens';

export interface SessionTokens {
  access: string;
  refresh: string;
}

export interface SessionDeps {
  db: Db;
  tokens: TokenService;
  now: Clock;
}

/**
 * A new session (a refresh-token family) for a user who just proved who they are; `mfaVerified` when the proof
 * included the second factor (operators' TOTP), which the family keeps for its whole life.
 */
export async function startSession(
  { db, tokens, now }: SessionDeps,
  userId: number,
  options: { mfaVerified?: boolean } = {},
): Promise<SessionTokens> {
  const familyId = randomUUID();
  // The family's lifetime is absolute from login (ASVS 10.4.8): rotation never extends it.
  const expiresAt = new Date(now().getTime() + tokens.refreshHours * 3_600_000);
  const refresh = await tokens.signRefresh(userId, familyId, expiresAt);
  await insertRefreshToken(db, {
    id: refresh.jti,
    userId,
    familyId,
    expiresAt,
    mfaVerified: options.mfaVerified ?? false,
  });
  return { access: await tokens.signAccess(userId, familyId), refresh: refresh.token };
}

export type RotationFailure = 'invalid' | 'expired' | 'revoked' | 'reused' | 'inactive';
export type RotationResult =
  | { ok: true; userId: number; tokens: SessionTokens }
  | { ok: false; reason: RotationFailure };

/**
 * Exchanges a refresh token for a new pair. Each refresh token works once; presenting one that was
 * already used means it leaked (or a client raced itself), so the whole family is revoked (ASVS 10.4.5).
 */
export async function rotateSession(
  deps: SessionDeps & { sessionUsers: SessionUsers },
  refreshToken: string,
): Promise<RotationResult> {
  const { db, tokens, now } = deps;
  const claims = await tokens.verify(refreshToken, 'refresh');
  if (!claims) return { ok: false, reason: 'invalid' };

  return inTransaction(db, async (trx): Promise<RotationResult> => {
    const at = now();
    const row = await lockRefreshToken(trx, claims.jti);
    if (!row || row.user_id !== claims.userId || row.family_id !== claims.familyId) {
      return { ok: false, reason: 'invalid' };
    }
    if (row.revoked_at !== null) return { ok: false, reason: 'revoked' };
    if (row.used_at !== null) {
      await revokeFamily(trx, row.family_id, at);
      return { ok: false, reason: 'reused' };
    }
    const expiresAt = new Date(row.expires_at);
    if (expiresAt.getTime() <= at.getTime()) return { ok: false, reason: 'expired' };

    if (!(await deps.sessionUsers.isActive(trx, row.user_id))) {
      await revokeFamily(trx, row.family_id, at);
      return { ok: false, reason: 'inactive' };
    }

    await markRefreshTokenUsed(trx, row.id, at);
    const next = await tokens.signRefresh(row.user_id, row.family_id, expiresAt);
    await insertRefreshToken(trx, {
      id: next.jti,
      userId: row.user_id,
      familyId: row.family_id,
      expiresAt,
      mfaVerified: row.mfa_verified,
    });
    return {
      ok: true,
      userId: row.user_id,
      tokens: { access: await tokens.signAccess(row.user_id, row.family_id), refresh: next.token },
    };
  });
}

/** Ends the user's sessions (password change or reset); `keepFamilyId` keeps the caller's own session. */
export function revokeUserSessions(
  { db, now }: Pick<SessionDeps, 'db' | 'now'>,
  userId: number,
  keepFamilyId: string | null = null,
): Promise<number> {
  return revokeUserRefreshTokens(db, userId, now(), keepFamilyId);
}
