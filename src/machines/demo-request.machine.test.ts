import { describe, expect, it } from 'vitest';
import { SERVER_MESSAGES } from '../domain/schemas/session';
import { DEMO_REQUEST_FAILED, demoRequestErrorMessages } from './demo-request.machine';

describe('demoRequestErrorMessages', () => {
  it('shows the first message of each field of `errors` (spec §8)', () => {
    const error = { status: 400, body: { errors: { email: ['Debe ser un correo valido', 'otro'] } } };
    expect(demoRequestErrorMessages(error)).toEqual(['Debe ser un correo valido']);
  });

  it('shows the server’s words for a 429: wait, rather than try again now', () => {
    const error = { status: 429, body: { detail: SERVER_MESSAGES.tooManyRequests } };
    expect(demoRequestErrorMessages(error)).toEqual([SERVER_MESSAGES.tooManyRequests]);
  });

  it('falls back to the generic text for a 500 or no answer', () => {
    expect(demoRequestErrorMessages({ status: 500, body: { detail: 'Error interno' } })).toEqual([
      DEMO_REQUEST_FAILED,
    ]);
    expect(demoRequestErrorMessages({ status: 0, body: null })).toEqual([DEMO_REQUEST_FAILED]);
  });
});
