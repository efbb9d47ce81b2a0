import 'altcha';
import 'altcha/i18n/es-419';
import { createElement } from 'react';

/**
 * The self-hosted ALTCHA proof-of-work widget (bundled, nothing fetched from a third party).
 * It solves when the sign-up machine asks for the 'register' token (auto="off").
 */
export function AltchaWidget({ challengeUrl }: { challengeUrl: string }) {
  return createElement('altcha-widget', {
    challenge: challengeUrl,
    auto: 'off',
    language: 'es-419',
    name: 'recaptcha_token',
  });
}
