import { describe, expect, it } from 'vitest';
import { ACTION_FAILED, DESK_REFUSAL, type FailureWording, failureText } from './call-failure';

const wording: FailureWording = {
  read: (status) => (status === 400 ? ['code', '[]'] : status === 409 ? ['*'] : []),
  otherwise: (status) => (status === 0 ? 'sin respuesta' : 'genérico'),
};

describe('failureText', () => {
  it('reads the body parts its wording names, in order', () => {
    expect(failureText({ status: 400, body: { code: ['Código inválido'], x: ['otro'] } }, wording)).toBe(
      'Código inválido',
    );
    expect(failureText({ status: 400, body: { detail: 'no', rfc: ['RFC inválido'] } }, wording)).toBe(
      'RFC inválido',
    );
    expect(failureText({ status: 409, body: { detail: 'Ya existe.' } }, wording)).toBe('Ya existe.');
  });

  it("falls back to the screen's own text when the body says nothing it reads", () => {
    expect(failureText({ status: 500, body: { detail: 'traceback' } }, wording)).toBe('genérico');
    expect(failureText({ status: 400, body: { rfc: ['  '] } }, wording)).toBe('genérico');
    expect(failureText({ status: 0, body: null }, wording)).toBe('sin respuesta');
    expect(failureText(new Error('boom'), wording)).toBe('genérico');
  });

  it('words a desk refusal with its detail or the shared action text', () => {
    expect(failureText({ status: 409, body: { detail: 'Ya aprobado.' } }, DESK_REFUSAL)).toBe('Ya aprobado.');
    expect(failureText(null, DESK_REFUSAL)).toBe(ACTION_FAILED);
  });
});
