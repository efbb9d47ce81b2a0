import { describe, expect, it } from 'vitest';
import {
  accessTokenState,
  loginErrorMessage,
  REFRESH_MARGIN_MS,
  refreshDelayMs,
  tokenExpiryMs,
} from './session';

// Unsigned JWTs are enough: the browser only reads exp (the server verifies signatures).
function jwt(payload: object): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256', typ: 'JWT' })}.${part(payload)}.signature`;
}
const NOW = Date.UTC(2026, 10, 22, 12, 0, 0);

describe('tokenExpiryMs', () => {
  it('reads exp (seconds) as milliseconds since the epoch', () => {
    // exp 1795867200 s = 2026-11-28T12:00:00Z
    expect(tokenExpiryMs(jwt({ exp: 1_795_867_200 }))).toBe(1_795_867_200_000);
    expect(new Date(tokenExpiryMs(jwt({ exp: 1_795_867_200, sub: 'x' }))!).toISOString()).toBe(
      '2026-11-28T12:00:00.000Z',
    );
  });

  it('is null for a token without a numeric exp or that cannot be decoded', () => {
    expect(tokenExpiryMs(jwt({ sub: 'x' }))).toBeNull();
    expect(tokenExpiryMs(jwt({ exp: '1795867200' }))).toBeNull();
    expect(tokenExpiryMs('not-a-jwt')).toBeNull();
    expect(tokenExpiryMs('a.%%%.c')).toBeNull();
    expect(tokenExpiryMs('')).toBeNull();
  });
});

describe('accessTokenState', () => {
  it('is missing without a token', () => {
    expect(accessTokenState(null, NOW)).toBe('missing');
    expect(accessTokenState('', NOW)).toBe('missing');
  });
  it('is valid before exp and expired at or after it', () => {
    expect(accessTokenState(jwt({ exp: NOW / 1000 + 300 }), NOW)).toBe('valid');
    expect(accessTokenState(jwt({ exp: NOW / 1000 }), NOW)).toBe('expired');
    expect(accessTokenState(jwt({ exp: NOW / 1000 - 1 }), NOW)).toBe('expired');
  });
  it('treats an undecodable token or one without exp as expired', () => {
    expect(accessTokenState('not-a-jwt', NOW)).toBe('expired');
    expect(accessTokenState(jwt({ sub: '1' }), NOW)).toBe('expired');
  });
});

describe('refreshDelayMs', () => {
  it('waits until one margin before expiry', () => {
    expect(refreshDelayMs(jwt({ exp: NOW / 1000 + 300 }), NOW)).toBe(300_000 - REFRESH_MARGIN_MS);
  });
  it('refreshes at once when the token is about to expire or unreadable', () => {
    expect(refreshDelayMs(jwt({ exp: NOW / 1000 + 30 }), NOW)).toBe(0);
    expect(refreshDelayMs('garbage', NOW)).toBe(0);
  });
});

describe('loginErrorMessage (spec §8)', () => {
  it.each([
    [{ status: 401, body: { detail: 'Error en contraseña o usuario' } }, 'Error en contraseña o usuario'],
    [{ status: 400, body: { message: 'Cuenta bloqueada' } }, 'Cuenta bloqueada'],
    [{ status: 400, body: { error: 'Usuario inactivo' } }, 'Usuario inactivo'],
    [{ status: 400, body: { result: 'Sin permiso' } }, 'Sin permiso'],
    [{ status: 400, body: { message: false } }, "The answers don't match"],
    [{ status: 401, body: {} }, 'Error en contraseña o usuario'],
    [{ status: 0, body: null }, 'Unexpected error'],
    [null, 'Unexpected error'],
  ])('%j → %s', (failure, message) => {
    expect(loginErrorMessage(failure)).toBe(message);
  });
});
