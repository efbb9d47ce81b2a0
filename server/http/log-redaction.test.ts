import { describe, expect, it } from 'vitest';
import { redactSecrets } from './log-redaction';

describe('redactSecrets', () => {
  it('hides the value of every …token= parameter and keeps the rest of the URL', () => {
    expect(redactSecrets('GET /auth/reiniciar-contrasena/?token=abc_DEF-123')).toBe(
      'GET /auth/reiniciar-contrasena/?token=[redacted]',
    );
    expect(redactSecrets('https://flujo.mx/x/?a=1&token=s3cr%20et&b=2#mfa_token=zz')).toBe(
      'https://flujo.mx/x/?a=1&token=[redacted]&b=2#mfa_token=[redacted]',
    );
  });

  it('leaves text without a token alone', () => {
    expect(redactSecrets('/api/invoices/?page=2&tokenized=no')).toBe('/api/invoices/?page=2&tokenized=no');
  });
});
