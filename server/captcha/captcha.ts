import { MESSAGES } from '../../src/domain/schemas/fields';

/** Shown under `recaptcha_token` when the CAPTCHA token is missing, wrong, expired or replayed. */
export const CAPTCHA_FAILED_MESSAGE = MESSAGES.captchaFailed;

/**
 * Actions a CAPTCHA token can be issued for: sign-up runs 'register' (spec §5); a login runs 'login' once its
 * username has failed a few times (docs/decisions/0061-logout-and-lockout.md).
 */
export const CAPTCHA_ACTIONS = ['register', 'login'] as const;
export type CaptchaAction = (typeof CAPTCHA_ACTIONS)[number];

export function isCaptchaAction(value: unknown): value is CaptchaAction {
  return (CAPTCHA_ACTIONS as readonly unknown[]).includes(value);
}

export interface CaptchaPublicConfig {
  provider: 'altcha' | 'recaptcha';
  /** reCAPTCHA only: the site key the browser runs grecaptcha.execute with. */
  site_key?: string;
}

export interface Captcha {
  readonly config: CaptchaPublicConfig;
  /** An ALTCHA challenge for the widget; absent for reCAPTCHA (Google issues its own). */
  createChallenge?(action: CaptchaAction): Promise<unknown>;
  /** True when the token proves a human ran `action`; a token verifies at most once. Never throws. */
  verify(token: string, action: CaptchaAction, remoteIp: string): Promise<boolean>;
}
