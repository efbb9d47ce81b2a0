import { describe, expect, it } from 'vitest';
import { COLLECTION_MESSAGES, judgeCollection } from './collections';

const base = {
  fecha: '2026-03-10',
  today: '2026-03-10',
  disbursedOn: '2026-03-01',
  amount: 400_000,
  remaining: 1_000_000,
  sobrepago: false,
};

describe('judgeCollection', () => {
  it('takes a payment dated between the disbursement and today, up to what remains', () => {
    expect(judgeCollection(base)).toEqual({ ok: true, overpaid: 0 });
    expect(judgeCollection({ ...base, fecha: '2026-03-01', amount: 1_000_000 })).toEqual({
      ok: true,
      overpaid: 0,
    });
  });

  it('refuses a date after today or before the disbursement, on the fecha field', () => {
    expect(judgeCollection({ ...base, fecha: '2026-03-11' })).toEqual({
      ok: false,
      errors: { fecha: [COLLECTION_MESSAGES.fechaAfterToday('2026-03-10')] },
    });
    expect(judgeCollection({ ...base, fecha: '2026-02-28' })).toEqual({
      ok: false,
      errors: { fecha: [COLLECTION_MESSAGES.fechaBeforeDisbursement('2026-03-01')] },
    });
    expect(judgeCollection({ ...base, fecha: '2020-01-01', disbursedOn: null }).ok).toBe(true);
  });

  it('refuses more than remains unless the caller says sobrepago, which records the part above', () => {
    expect(judgeCollection({ ...base, amount: 1_000_001 })).toEqual({
      ok: false,
      errors: { amount: [COLLECTION_MESSAGES.amountAboveRemaining(1_000_000)] },
    });
    expect(judgeCollection({ ...base, amount: 1_200_000, sobrepago: true })).toEqual({
      ok: true,
      overpaid: 200_000,
    });
    expect(judgeCollection({ ...base, sobrepago: true })).toEqual({
      ok: false,
      errors: { sobrepago: [COLLECTION_MESSAGES.notOverpayment(1_000_000)] },
    });
    expect(COLLECTION_MESSAGES.amountAboveRemaining(600_000)).toBe(
      'El monto excede lo que falta por cobrar de esta factura ($6,000.00 MXN). Si el corporativo pagó de más, márcalo como sobrepago.',
    );
  });
});
