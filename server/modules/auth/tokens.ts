import { randomUUID } from 'node:crypto';
import { type JWTPayload, jwtVerify, SignJWT } from 'jose';
import type { Clock } from './clock';

// NOTE: simplejwt defaults (research/performance-and-security.md §7.2): HS256, a `token_type` claim
// so a refresh token never authorizes a call (ASVS 9.2.2), `exp` on both, `jti` for revocation.
const ALGORITHM = 'HS256';

export type TokenType = 'access' | 'refresh';

export interface TokenClaims {
  userId: number;
  /** Token id (`jti`); for refresh tokens, the refresh_tokens row id. */
  jti: string;
  /** Refresh-token family (one login); access tokens carry it so a password change keeps this session. */
  familyId: string;
  expiresAt: Date;
}

export interface TokenService {
  accessMinutes: number;
  refreshHours: number;
  /** Signs an access token for the family, expiring accessMinutes from now. */
  signAccess(userId: number, familyId: string): Promise<string>;
  /** Signs a refresh token with a fresh jti; the caller stores the row. */
  signRefresh(userId: number, familyId: string, expiresAt: Date): Promise<{ token: string; jti: string }>;
  /** The claims of a valid, unexpired token of that type; null for anything else (never throws). */
  verify(token: string, type: TokenType): Promise<TokenClaims | null>;
}

interface FlujoClaims extends JWTPayload {
  token_type?: unknown;
  fam?: unknown;
}

/** Access tokens remembered as verified; past this the memory starts again from empty. */
const VERIFIED_ACCESS_MAX = 10_000;

const seconds = (date: Date): number => Math.floor(date.getTime() / 1000);

export function createTokenService(options: {
  secret: string;
  accessMinutes: number;
  refreshHours: number;
  now: Clock;
}): TokenService {
  const key = new TextEncoder().encode(options.secret);
  // An access token's signature and claims never change, so each is checked once per process; its expiry is
  // still compared with the clock on every use (decision 0072: the check was 9 % of a list request's CPU).
  const verifiedAccess = new Map<string, TokenClaims>();

  const sign = (userId: number, type: TokenType, familyId: string, jti: string, expiresAt: Date) =>
    new SignJWT({ token_type: type, fam: familyId })
      .setProtectedHeader({ alg: ALGORITHM, typ: 'JWT' })
      .setSubject(String(userId))
      .setJti(jti)
      .setIssuedAt(seconds(options.now()))
      .setExpirationTime(seconds(expiresAt))
      .sign(key);

  return {
    accessMinutes: options.accessMinutes,
    refreshHours: options.refreshHours,
    signAccess(userId, familyId) {
      const expiresAt = new Date(options.now().getTime() + options.accessMinutes * 60_000);
      return sign(userId, 'access', familyId, randomUUID(), expiresAt);
    },
    async signRefresh(userId, familyId, expiresAt) {
      const jti = randomUUID();
      return { token: await sign(userId, 'refresh', familyId, jti, expiresAt), jti };
    },
    async verify(token, type) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 4096) return null;
      if (type === 'access') {
        const known = verifiedAccess.get(token);
        if (known) {
          if (known.expiresAt.getTime() > options.now().getTime()) return known;
          verifiedAccess.delete(token);
          return null;
        }
      }
      try {
        const { payload } = await jwtVerify<FlujoClaims>(token, key, {
          algorithms: [ALGORITHM],
          currentDate: options.now(),
          requiredClaims: ['exp', 'sub', 'jti'],
        });
        const userId = Number(payload.sub);
        if (payload.token_type !== type || typeof payload.fam !== 'string' || !Number.isSafeInteger(userId)) {
          return null;
        }
        const claims: TokenClaims = {
          userId,
          jti: String(payload.jti),
          familyId: payload.fam,
          expiresAt: new Date(Number(payload.exp) * 1000),
        };
        if (type === 'access') {
          if (verifiedAccess.size >= VERIFIED_ACCESS_MAX) verifiedAccess.clear();
          verifiedAccess.set(token, claims);
        }
        return claims;
      } catch {
        return null;
      }
    },
  };
}
