import type { Captcha } from '../../captcha/captcha';
import type { Db } from '../../db/database';
import type { Mailer } from '../../mail/mailer';
import type { Clock } from '../auth/clock';
import type { PublicWriteLimiter } from '../auth/public-write-limits';
import type { SessionUsers } from '../auth/session-users';
import type { Throttle, ThrottleRule } from '../auth/throttle';
import type { TokenService } from '../auth/tokens';

/** What the user-service routes and the password-reset routes need; assembled once in app.ts. */
export interface AccountsDeps {
  db: Db;
  tokens: TokenService;
  /** The readers of session users that authentication is handed (auth imports nothing of accounts). */
  sessionUsers: SessionUsers;
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
  /** Waits before a wrong password is answered (loginFailureDelayMs); tests pass one that only records. */
  pause: (ms: number) => Promise<void>;
}

// Throttle rules of the session calls (docs/decisions/0008-sessions-and-tokens.md, 0061-logout-and-lockout.md);
// the public forms' are in modules/auth/public-write-limits.ts. Login counts failures only (a success gives its
// hits back). The hard limits are per address and per username *from that address*, so a stranger can only lock
// themselves out; a username's failures from any address only ask for the CAPTCHA and slow the answers down.
export const THROTTLE_RULES = {
  loginPerUsernameAndAddress: { limit: 5, windowMinutes: 15 },
  loginPerAddress: { limit: 20, windowMinutes: 15 },
  passwordChangeFailuresPerUser: { limit: 5, windowMinutes: 15 },
} as const satisfies Record<string, ThrottleRule>;

/** A username's failures (any address, last 15 minutes) from which a login needs the CAPTCHA 'login'. */
export const LOGIN_CAPTCHA_AFTER_FAILURES = 3;
export const LOGIN_FAILURES_WINDOW_MINUTES = 15;
const LOGIN_DELAY_BASE_MS = 250;
const LOGIN_DELAY_MAX_MS = 4_000;

/**
 * How long a wrong password waits before its 401, given the username's earlier failures: nothing for the first
 * few, then 250 ms doubling up to 4 s (ASVS 6.3.x: slow guessing without locking the owner out).
 */
export function loginFailureDelayMs(earlierFailures: number): number {
  if (earlierFailures < LOGIN_CAPTCHA_AFTER_FAILURES) return 0;
  const steps = earlierFailures - LOGIN_CAPTCHA_AFTER_FAILURES;
  return Math.min(LOGIN_DELAY_MAX_MS, LOGIN_DELAY_BASE_MS * 2 ** Math.min(steps, 10));
}
