import type { CaptchaConfig, LoginRequest } from '../domain/schemas/session';
import type { LoginAttempt } from '../domain/session';
import { captchaConfig } from './accounts.service';

/** The widget element altcha registers; `verify()` solves the proof of work and returns the payload. */
interface AltchaWidgetElement extends HTMLElement {
  verify(): Promise<{ payload: string } | null>;
}

interface ReCaptcha {
  ready(callback: () => void): void;
  execute(siteKey: string, options: { action: string }): Promise<string>;
}

const RECAPTCHA_SCRIPT = 'https://www.google.com/recaptcha/api.js';

function loadRecaptcha(siteKey: string): Promise<ReCaptcha> {
  const existing = (window as { grecaptcha?: ReCaptcha }).grecaptcha;
  if (existing) return Promise.resolve(existing);
  // Only when reCAPTCHA keys are configured: the default setup loads nothing from a third-party host.
  return new Promise((resolve, reject) => {
    const script = document.createElement('script');
    script.src = `${RECAPTCHA_SCRIPT}?render=${encodeURIComponent(siteKey)}`;
    script.onload = () => {
      const grecaptcha = (window as { grecaptcha?: ReCaptcha }).grecaptcha;
      if (grecaptcha) grecaptcha.ready(() => resolve(grecaptcha));
      else reject(new Error('reCAPTCHA no disponible'));
    };
    script.onerror = () => reject(new Error('reCAPTCHA no disponible'));
    document.head.appendChild(script);
  });
}

/**
 * Runs the CAPTCHA for an action and returns the token the server verifies: the self-hosted ALTCHA
 * widget on the page by default, Google reCAPTCHA v3 when the server says it is configured.
 * Throws when no CAPTCHA can run, so the caller does not submit (spec §5).
 */
export async function solveCaptcha(action: string, config?: CaptchaConfig): Promise<string> {
  const active = config ?? (await captchaConfig());
  if (active.provider === 'recaptcha' && active.site_key) {
    const grecaptcha = await loadRecaptcha(active.site_key);
    return grecaptcha.execute(active.site_key, { action });
  }
  const widget = document.querySelector<AltchaWidgetElement>('altcha-widget');
  if (!widget || typeof widget.verify !== 'function') throw new Error('CAPTCHA no disponible');
  const result = await widget.verify();
  if (!result?.payload) throw new Error('CAPTCHA no disponible');
  return result.payload;
}

/** The credentials a login sends: with the CAPTCHA 'login' solved first when the server asked for it. */
export async function loginCredentials({ credentials, withCaptcha }: LoginAttempt): Promise<LoginRequest> {
  return withCaptcha ? { ...credentials, captcha_token: await solveCaptcha('login') } : credentials;
}
