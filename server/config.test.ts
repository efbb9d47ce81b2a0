import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config';

// The secrets are always given so loadConfig stays pure (no development secret files).
const BASE = { JWT_SECRET: 's'.repeat(40), SAT_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64') };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig({ ...BASE, ...env });
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('session, mail and CAPTCHA configuration', () => {
  it('has defaults for a development start', () => {
    const config = loadConfig({ ...BASE, PORT: '9090' });
    expect(config).toMatchObject({
      accessTokenMinutes: 5,
      refreshTokenHours: 24,
      appBaseUrl: 'http://localhost:9090',
      smtpUrl: null,
      mailFrom: 'Flujo <no-responder@flujo.mx>',
      recaptcha: null,
    });
    // An empty PORT= is unset: the default port, not a random one.
    expect(loadConfig({ ...BASE, PORT: '' }).port).toBe(8080);
    expect(loadConfig({ ...BASE, LOG_LEVEL: '' }).logLevel).toBe('info');
    expect(problems({ LOG_LEVEL: 'verbose' })).toEqual([
      'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
    ]);
    // Derived from the JWT secret, but not equal to it.
    expect(config.altchaHmacKey).toMatch(/^[0-9a-f]{64}$/);
    expect(loadConfig(BASE).altchaHmacKey).toBe(config.altchaHmacKey);
  });

  it('reads every key', () => {
    const config = loadConfig({
      ...BASE,
      ACCESS_TOKEN_MINUTES: '10',
      REFRESH_TOKEN_HOURS: '12',
      APP_BASE_URL: 'https://app.flujo.mx/',
      SMTP_URL: 'smtp://usuario:clave@smtp.flujo.mx:587',
      MAIL_FROM: 'avisos@flujo.mx',
      RECAPTCHA_SECRET_KEY: 'secreto',
      RECAPTCHA_SITE_KEY: 'sitio',
      ALTCHA_HMAC_KEY: 'k'.repeat(32),
    });
    expect(config).toMatchObject({
      accessTokenMinutes: 10,
      refreshTokenHours: 12,
      appBaseUrl: 'https://app.flujo.mx',
      smtpUrl: 'smtp://usuario:clave@smtp.flujo.mx:587',
      mailFrom: 'avisos@flujo.mx',
      recaptcha: { secretKey: 'secreto', siteKey: 'sitio' },
      altchaHmacKey: 'k'.repeat(32),
    });
  });

  it('explains every bad value at once', () => {
    expect(
      problems({
        ACCESS_TOKEN_MINUTES: '0',
        REFRESH_TOKEN_HOURS: 'un día',
        APP_BASE_URL: 'ftp://flujo.mx',
        SMTP_URL: 'mail.flujo.mx',
        MAIL_FROM: 'Flujo',
        RECAPTCHA_SITE_KEY: 'solo-el-sitio',
        ALTCHA_HMAC_KEY: 'corta',
      }),
    ).toEqual([
      'ACCESS_TOKEN_MINUTES must be an integer 1-60 (got "0")',
      'REFRESH_TOKEN_HOURS must be an integer 1-720 (got "un día")',
      'APP_BASE_URL must be an http(s) URL without query, like https://flujo.mx (got "ftp://flujo.mx")',
      'SMTP_URL must look like smtp://user:password@host:587 or smtps://…',
      `MAIL_FROM must be an address or 'Name <address>' (got "Flujo")`,
      'RECAPTCHA_SECRET_KEY and RECAPTCHA_SITE_KEY go together: set both or neither',
      'ALTCHA_HMAC_KEY must be at least 32 characters',
    ]);
  });
});

describe('upload limit', () => {
  it('is 20 MB unless UPLOAD_MAX_MB says otherwise, 1 to 200', () => {
    expect(loadConfig(BASE).uploadMaxBytes).toBe(20 * 1024 * 1024);
    expect(loadConfig({ ...BASE, UPLOAD_MAX_MB: '5' }).uploadMaxBytes).toBe(5 * 1024 * 1024);
    expect(problems({ UPLOAD_MAX_MB: '0' })).toEqual(['UPLOAD_MAX_MB must be an integer 1-200 (got "0")']);
    expect(problems({ UPLOAD_MAX_MB: '20MB' })).toEqual([
      'UPLOAD_MAX_MB must be an integer 1-200 (got "20MB")',
    ]);
  });
});

describe('kept list answers', () => {
  it('are 1,000 per process unless LIST_ANSWERS_KEPT says otherwise, 0 (none) to 100,000', () => {
    expect(loadConfig(BASE).listAnswersKept).toBe(1_000);
    expect(loadConfig({ ...BASE, LIST_ANSWERS_KEPT: '0' }).listAnswersKept).toBe(0);
    expect(problems({ LIST_ANSWERS_KEPT: '-1' })).toEqual([
      'LIST_ANSWERS_KEPT must be an integer 0-100000 (got "-1")',
    ]);
  });
});
