import { jwtDecode } from 'jwt-decode';
import { is } from 'superstruct';
import { callFailureOf, failureText } from './call-failure';
import { LoginCaptchaRequired, type LoginRequest } from './schemas/session';

/** Refresh this long before the access token expires, so no call ever leaves with a dead token. */
export const REFRESH_MARGIN_MS = 60_000;

export type AccessTokenState = 'missing' | 'expired' | 'valid';

/**
 * Spec §4: no token, an expiry in the past, or a token that cannot be decoded (treated as expired)
 * all mean the session is over. `nowMs` is passed in so the rule stays pure.
 */
export function accessTokenState(token: string | null | undefined, nowMs: number): AccessTokenState {
  if (!token) return 'missing';
  const exp = tokenExpiryMs(token);
  return exp !== null && exp > nowMs ? 'valid' : 'expired';
}

/** Expiry of a JWT in ms since the epoch, or null when it cannot be decoded or has no exp. */
export function tokenExpiryMs(token: string): number | null {
  try {
    const { exp } = jwtDecode<{ exp?: number }>(token);
    return typeof exp === 'number' ? exp * 1000 : null;
  } catch {
    return null;
  }
}

/** How long to wait before refreshing: until REFRESH_MARGIN_MS before expiry, never negative. */
export function refreshDelayMs(token: string | null, nowMs: number): number {
  const exp = token ? tokenExpiryMs(token) : null;
  return exp === null ? 0 : Math.max(0, exp - REFRESH_MARGIN_MS - nowMs);
}

/** Spec §8: what a refresh without a usable stored refresh token raises internally; the session then ends. */
export const INVALID_REFRESH_TOKEN = 'Invalid refresh token';
export const LOGIN_FAILED = 'Error en contraseña o usuario';
export const ANSWERS_DONT_MATCH = "The answers don't match";
export const UNEXPECTED_ERROR = 'Unexpected error';

/**
 * Spec §8 login failure toast: the server's detail, message, error or result text is preferred;
 * a boolean message becomes 'The answers don't match'; an answer without text is the generic
 * credentials message; no answer at all is 'Unexpected error'.
 */
export function loginErrorMessage(failure: { status?: number; body?: unknown } | null | undefined): string {
  if (typeof callFailureOf(failure).body?.message === 'boolean') return ANSWERS_DONT_MATCH;
  return failureText(failure, {
    // A login that needs the CAPTCHA first (decision 0061) says why under its field.
    read: () => ['captcha_token', 'detail', 'message', 'error', 'result'],
    otherwise: (status) => (status ? LOGIN_FAILED : UNEXPECTED_ERROR),
  });
}

/** A login as sent: the app solves the CAPTCHA 'login' first when the server has asked for it (decision 0061). */
export interface LoginAttempt {
  credentials: LoginRequest;
  withCaptcha: boolean;
}

/** The server refused a login until it comes with the CAPTCHA: a few failures for that username (decision 0061). */
export function asksForCaptcha(failure: unknown): boolean {
  return is((failure as { body?: unknown } | null)?.body, LoginCaptchaRequired);
}
