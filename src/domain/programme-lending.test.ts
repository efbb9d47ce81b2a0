import { describe, expect, it } from 'vitest';
import {
  effectiveProgrammeState,
  isPastEnd,
  PROGRAMME_REFUSALS,
  programmeLendingRefusal,
  programmeRoomRefusal,
} from './programme-lending';

describe('isPastEnd', () => {
  it('lends on the end date itself and not the day after; a programme without an end never expires', () => {
    expect(isPastEnd('2026-06-30', '2026-06-30')).toBe(false);
    expect(isPastEnd('2026-06-30', '2026-07-01')).toBe(true);
    expect(isPastEnd(null, '2099-01-01')).toBe(false);
  });
});

describe('effectiveProgrammeState', () => {
  it('counts an active or frozen programme past its end as vencido, and leaves a borrador as it is', () => {
    expect(effectiveProgrammeState({ state: 'activo', endsOn: '2026-06-30' }, '2026-07-01')).toBe('vencido');
    expect(effectiveProgrammeState({ state: 'congelado', endsOn: '2026-06-30' }, '2026-07-01')).toBe(
      'vencido',
    );
    expect(effectiveProgrammeState({ state: 'borrador', endsOn: '2026-06-30' }, '2026-07-01')).toBe(
      'borrador',
    );
    expect(effectiveProgrammeState({ state: 'activo', endsOn: '2026-06-30' }, '2026-06-30')).toBe('activo');
  });
});

describe('programmeLendingRefusal', () => {
  const active = { state: 'activo', startsOn: '2026-01-01', endsOn: '2026-06-30' } as const;

  it('lends from the start date through the end date', () => {
    expect(programmeLendingRefusal(active, '2026-01-01')).toBeNull();
    expect(programmeLendingRefusal(active, '2026-06-30')).toBeNull();
  });

  it('words each refusal', () => {
    expect(programmeLendingRefusal(null, '2026-03-01')).toBe(PROGRAMME_REFUSALS.none);
    expect(programmeLendingRefusal({ ...active, state: 'borrador' }, '2026-03-01')).toBe(
      PROGRAMME_REFUSALS.borrador,
    );
    expect(programmeLendingRefusal({ ...active, state: 'congelado' }, '2026-03-01')).toBe(
      PROGRAMME_REFUSALS.congelado,
    );
    expect(programmeLendingRefusal(active, '2025-12-31')).toBe(
      'El programa de crédito del comprador inicia el 01/01/2026; por ahora no podemos adelantar este pago.',
    );
    expect(programmeLendingRefusal(active, '2026-07-01')).toBe(
      'El programa de crédito del comprador venció el 30/06/2026; por ahora no podemos adelantar este pago.',
    );
  });
});

describe('programmeRoomRefusal', () => {
  it('refuses an amount above what is available, showing a negative balance as 0', () => {
    expect(programmeRoomRefusal(10_000, 10_000)).toBeNull();
    expect(programmeRoomRefusal(-500, 100)).toBe(PROGRAMME_REFUSALS.noRoom(0, 100));
  });
});
