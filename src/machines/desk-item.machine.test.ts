import { describe, expect, it } from 'vitest';
import { DESK_STATES } from '../domain/control-desk';
import { DESK_STATE_LABELS, deskTransition } from './desk-item.machine';

describe('desk-item machine', () => {
  it('approves a queued advance only when every check passes, or when automation forces it', () => {
    expect(deskTransition('queued', { type: 'desk.approve', failingChecks: 0 })).toEqual({
      ok: true,
      state: 'approved',
    });
    expect(deskTransition('queued', { type: 'desk.approve', failingChecks: 2 })).toEqual({
      ok: false,
      message: 'No se puede aprobar: hay verificaciones que no pasan.',
    });
    expect(deskTransition('queued', { type: 'desk.approve', failingChecks: 2, force: true })).toMatchObject({
      state: 'approved',
    });
  });

  it('rejects with a reason only, and a rejected advance asked again is queued', () => {
    expect(deskTransition('queued', { type: 'desk.reject', reason: '  ' })).toMatchObject({ ok: false });
    expect(
      deskTransition('queued', { type: 'desk.reject', reason: 'CLABE a nombre de otra empresa' }),
    ).toEqual({
      ok: true,
      state: 'rejected',
    });
    expect(deskTransition('rejected', { type: 'desk.requeue' })).toEqual({ ok: true, state: 'queued' });
  });

  it('batches approved advances; the bank settles or returns them; a returned one is back on the desk', () => {
    expect(deskTransition('approved', { type: 'desk.batch' })).toEqual({ ok: true, state: 'in_batch' });
    expect(deskTransition('queued', { type: 'desk.batch' })).toEqual({
      ok: false,
      message: 'Solo los adelantos aprobados entran a un lote; este está «En la mesa».',
    });
    expect(deskTransition('in_batch', { type: 'bank.settle' })).toEqual({ ok: true, state: 'paid' });
    expect(deskTransition('in_batch', { type: 'bank.return', reason: 'Cuenta inexistente' })).toEqual({
      ok: true,
      state: 'returned',
    });
    expect(deskTransition('returned', { type: 'desk.approve', failingChecks: 0 })).toMatchObject({
      state: 'approved',
    });
    expect(deskTransition('returned', { type: 'desk.reject', reason: 'Cuenta cancelada' })).toMatchObject({
      state: 'rejected',
    });
  });

  it('a paid advance takes nothing more: nothing is paid twice', () => {
    for (const event of [
      { type: 'bank.settle' },
      { type: 'desk.batch' },
      { type: 'desk.approve', failingChecks: 0 },
    ] as const) {
      expect(deskTransition('paid', event)).toMatchObject({ ok: false });
    }
    expect(deskTransition('paid', { type: 'bank.settle' })).toEqual({
      ok: false,
      message: 'La orden no está en un lote pendiente; el adelanto está «Pagado».',
    });
  });

  it('names every state in Spanish', () => {
    expect(DESK_STATES.map((state) => DESK_STATE_LABELS[state])).toEqual([
      'En la mesa',
      'Aprobado',
      'Rechazado',
      'En lote SPEI',
      'Pagado',
      'Devuelto por el banco',
    ]);
  });
});
