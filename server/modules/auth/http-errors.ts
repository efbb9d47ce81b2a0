import { LOGIN_FAILED } from '../../../src/domain/session';

// Client errors of the session endpoints. The app's error handler answers any error with a 4xx
// `statusCode` as {detail: message} (server/http/errors.ts).

export const MESSAGES = {
  badCredentials: LOGIN_FAILED,
  notAuthenticated: 'Las credenciales de autenticación no se proveyeron o expiraron.',
  badRefreshToken: 'La sesión expiró o no es válida. Inicia sesión de nuevo.',
  tooManyAttempts: 'Demasiados intentos. Intenta de nuevo en unos minutos.',
} as const;

export class UnauthorizedError extends Error {
  readonly statusCode = 401;
}

/** 429; the app's error handler adds Retry-After from `retryAfterSeconds` (server/http/errors.ts). */
export class TooManyAttemptsError extends Error {
  readonly statusCode = 429;
  constructor(
    readonly retryAfterSeconds: number,
    message: string = MESSAGES.tooManyAttempts,
  ) {
    super(message);
  }
}
