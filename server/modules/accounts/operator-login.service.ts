import { createHash, randomBytes } from 'node:crypto';
import {
  type MfaChallengeResponse,
  type MfaLoginRequest,
  OPERATOR_LOGIN_MESSAGES,
  type OperatorIdentity,
} from '../../../src/domain/schemas/operator-session';
import { inTransaction } from '../../db/transaction';
import { FieldErrors } from '../../http/errors';
import { TooManyAttemptsError, UnauthorizedError } from '../auth/http-errors';
import { type SessionTokens, startSession } from '../auth/session.service';
import { matchTotp } from '../auth/totp';
import { type AccountsDeps, THROTTLE_RULES } from './accounts-deps';
import {
  findOperatorLock,
  insertMfaChallenge,
  lockMfaChallenge,
  lockOperatorTotp,
  recordTotpFailure,
  recordTotpSuccess,
  spendRecoveryCode,
  updateMfaChallenge,
} from './operator-mfa.repository';
import { openTotpSecret, recoveryCodeHash } from './operator-secrets';

// The second step of an operator's login (docs/decisions/0050-operators-identity.md).

/** How long the challenge between the password and the code lives. */
export const MFA_CHALLENGE_MINUTES = 5;
/** Wrong codes in a row that lock the operator out, and for how long (the research's "lock after 5 tries"). */
export const MFA_MAX_FAILURES = 5;
export const MFA_LOCK_MINUTES = 15;

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

function lockedError(lockedUntil: Date, now: Date): TooManyAttemptsError {
  const seconds = Math.max(1, Math.ceil((lockedUntil.getTime() - now.getTime()) / 1000));
  return new TooManyAttemptsError(seconds, OPERATOR_LOGIN_MESSAGES.locked);
}

/**
 * The password of a user with operator roles was right: a single-use challenge (only its SHA-256 is stored)
 * instead of tokens. A locked operator learns it here, before typing a code that could not work.
 */
export async function startMfaChallenge(deps: AccountsDeps, userId: number): Promise<MfaChallengeResponse> {
  const now = deps.now();
  const lock = await findOperatorLock(deps.db, userId);
  if (lock === undefined) throw new UnauthorizedError(OPERATOR_LOGIN_MESSAGES.notEnrolled);
  if (lock !== null && new Date(lock) > now) throw lockedError(new Date(lock), now);
  const token = randomBytes(32).toString('base64url');
  await insertMfaChallenge(deps.db, {
    id: sha256(token),
    userId,
    expiresAt: new Date(now.getTime() + MFA_CHALLENGE_MINUTES * 60_000),
  });
  return { mfa_required: true, mfa_token: token };
}

type MfaOutcome = { ok: true; userId: number } | { ok: false; error: Error };

/** A recovery code as typed: case, spaces and dashes do not matter. */
export function normalizeRecoveryCode(code: string): string {
  return code.toUpperCase().replace(/[\s-]/g, '');
}

/**
 * POST /login/mfa/: the challenge and a TOTP code (or an unused recovery code) → a session marked MFA-verified.
 * Throttled per address like the password step; MFA_MAX_FAILURES wrong codes in a row lock the operator for
 * MFA_LOCK_MINUTES (429 with Retry-After), even the right code, and end the challenge.
 */
export async function verifyMfa(
  deps: AccountsDeps,
  form: MfaLoginRequest,
  address: string,
): Promise<{ userId: number; tokens: SessionTokens }> {
  const ticket = await deps.throttle.take([[`login:mfa:ip:${address}`, THROTTLE_RULES.loginPerAddress]]);
  const outcome = await inTransaction(deps.db, async (trx): Promise<MfaOutcome> => {
    const now = deps.now();
    const challenge = await lockMfaChallenge(trx, sha256(form.mfa_token));
    if (!challenge || challenge.used_at !== null || new Date(challenge.expires_at) <= now) {
      return { ok: false, error: new UnauthorizedError(OPERATOR_LOGIN_MESSAGES.challengeExpired) };
    }
    const totp = await lockOperatorTotp(trx, challenge.user_id);
    if (!totp) return { ok: false, error: new UnauthorizedError(OPERATOR_LOGIN_MESSAGES.notEnrolled) };
    if (totp.locked_until !== null && new Date(totp.locked_until) > now) {
      await updateMfaChallenge(trx, challenge.id, { attempts: challenge.attempts, usedAt: now });
      return { ok: false, error: lockedError(new Date(totp.locked_until), now) };
    }

    const code = form.code.trim();
    let accepted = false;
    let step: number | null = null;
    if (/^\d{6}$/.test(code)) {
      const secret = openTotpSecret(totp.secret_encrypted, deps.secretKey, challenge.user_id);
      step = matchTotp(secret, code, now, totp.last_step);
      accepted = step !== null;
    } else {
      const recovery = normalizeRecoveryCode(code);
      accepted =
        recovery !== '' &&
        (await spendRecoveryCode(trx, challenge.user_id, recoveryCodeHash(recovery, deps.secretKey), now));
    }

    if (accepted) {
      await recordTotpSuccess(trx, challenge.user_id, now, step);
      await updateMfaChallenge(trx, challenge.id, { attempts: challenge.attempts + 1, usedAt: now });
      return { ok: true, userId: challenge.user_id };
    }
    const failures = totp.failed_attempts + 1;
    if (failures >= MFA_MAX_FAILURES) {
      const until = new Date(now.getTime() + MFA_LOCK_MINUTES * 60_000);
      await recordTotpFailure(trx, challenge.user_id, 0, until);
      await updateMfaChallenge(trx, challenge.id, { attempts: challenge.attempts + 1, usedAt: now });
      return { ok: false, error: lockedError(until, now) };
    }
    await recordTotpFailure(trx, challenge.user_id, failures, null);
    await updateMfaChallenge(trx, challenge.id, { attempts: challenge.attempts + 1, usedAt: null });
    return { ok: false, error: new FieldErrors({ code: [OPERATOR_LOGIN_MESSAGES.wrongCode] }) };
  });
  if (!outcome.ok) throw outcome.error;
  await deps.throttle.refund(ticket);
  const tokens = await startSession(deps, outcome.userId, { mfaVerified: true });
  return { userId: outcome.userId, tokens };
}

/** The identity the operators' top bar shows. */
export function operatorIdentity(row: {
  username: string;
  first_name: string;
  last_name: string;
  operator_roles: readonly string[];
}): OperatorIdentity {
  return {
    username: row.username,
    first_name: row.first_name,
    last_name: row.last_name,
    roles: [...row.operator_roles],
  };
}
