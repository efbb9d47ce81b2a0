import type { Captcha } from '../../captcha/captcha';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import type { Clock } from '../auth/clock';
import type { PublicWriteLimiter } from '../auth/public-write-limits';
import type { Throttle, ThrottleRule } from '../auth/throttle';
import type { TokenService } from '../auth/tokens';

/** What the user-service routes and the password-reset routes need; assembled once in app.ts. */
export interface AccountsDeps {
  db: Db;
  tokens: TokenService;
  now: Clock;
  throttle: Throttle;
  /** The public forms' limits (demo request, newsletter, referral, sign-up, reset request). */
  publicWrites: PublicWriteLimiter;
  captcha: Captcha;
  mailer: Mailer;
  /** Origin for links in e-mails (APP_BASE_URL). */
  appBaseUrl: string;
  /** SAT_ENCRYPTION_KEY: seals stored secrets (the CIEC, the operators' TOTP secrets). */
  secretKey: Buffer;
}

// Throttle rules of the session calls (docs/decisions/0008-sessions-and-tokens.md); the public forms' are in
// modules/auth/public-write-limits.ts. Login counts failures only; the username bucket is cleared by a successful
// login. ASVS 2.2.1 allows at most 100 failures per hour per account.
export const THROTTLE_RULES = {
  loginPerUsername: { limit: 5, windowMinutes: 15 },
  loginPerAddress: { limit: 20, windowMinutes: 15 },
  passwordChangeFailuresPerUser: { limit: 5, windowMinutes: 15 },
} as const satisfies Record<string, ThrottleRule>;
