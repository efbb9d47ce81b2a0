import type { Captcha, CaptchaAction } from './captcha';

// NOTE: Google reCAPTCHA v3 server-side verification
// (https://developers.google.com/recaptcha/docs/verify, https://developers.google.com/recaptcha/docs/v3):
// POST secret/response/remoteip as a form; the answer has success, score (0.0-1.0), action, hostname.
const VERIFY_URL = 'https://www.google.com/recaptcha/api/siteverify';
export const RECAPTCHA_MIN_SCORE = 0.5;
const TIMEOUT_MS = 5_000;

type Fetch = typeof fetch;

interface SiteVerifyResponse {
  success?: unknown;
  score?: unknown;
  action?: unknown;
}

/**
 * Google reCAPTCHA v3, used when RECAPTCHA_SECRET_KEY and RECAPTCHA_SITE_KEY are configured. Google's tokens
 * are single-use (a second verification answers 'timeout-or-duplicate'). Google unreachable = not verified.
 */
export function createRecaptchaCaptcha(options: {
  secretKey: string;
  siteKey: string;
  fetch?: Fetch;
  onError?: (error: unknown) => void;
}): Captcha {
  const doFetch = options.fetch ?? fetch;
  return {
    config: { provider: 'recaptcha', site_key: options.siteKey },
    async verify(token: string, action: CaptchaAction, remoteIp: string) {
      if (typeof token !== 'string' || token.length === 0 || token.length > 8_192) return false;
      try {
        const response = await doFetch(VERIFY_URL, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({
            secret: options.secretKey,
            response: token,
            remoteip: remoteIp,
          }).toString(),
          signal: AbortSignal.timeout(TIMEOUT_MS),
        });
        if (!response.ok) return false;
        const result = (await response.json()) as SiteVerifyResponse;
        return (
          result.success === true &&
          result.action === action &&
          typeof result.score === 'number' &&
          result.score >= RECAPTCHA_MIN_SCORE
        );
      } catch (error) {
        options.onError?.(error);
        return false;
      }
    },
  };
}
