import { describe, expect, it } from 'vitest';
import {
  RESET_REQUEST_FAILED,
  resetRequestErrorMessage,
  UNKNOWN_EMAIL,
} from './password-reset-request.machine';

describe('resetRequestErrorMessage (spec §8)', () => {
  it('maps the server text for an unknown address', () => {
    expect(
      resetRequestErrorMessage({ status: 400, body: { message: 'User with this email does not exist' } }),
    ).toBe(UNKNOWN_EMAIL);
  });
  it('uses the generic text for anything else', () => {
    expect(resetRequestErrorMessage({ status: 400, body: { email: ['Debe ser un correo valido'] } })).toBe(
      RESET_REQUEST_FAILED,
    );
    expect(resetRequestErrorMessage({ status: 429, body: { detail: 'Demasiados intentos' } })).toBe(
      RESET_REQUEST_FAILED,
    );
    expect(resetRequestErrorMessage({ status: 0, body: null })).toBe(RESET_REQUEST_FAILED);
    expect(resetRequestErrorMessage(null)).toBe(RESET_REQUEST_FAILED);
  });
});
