import { describe, expect, it } from 'vitest';
import {
  BULK_DATE_MAX,
  BULK_DATE_MIN,
  bulkPaymentDateError,
  exceedingPaymentDates,
  latestPaymentDate,
  MAX_PAYMENT_DAYS,
  PAYMENT_DATE_NOT_AFTER_TODAY,
  PAYMENT_DATES_OUT_OF_RANGE_MESSAGE,
  paymentDateError,
  paymentDateNotAfterToday,
  paymentDateNotAfterTodayOf,
  preAuthorizationDateError,
} from './payment-date';

describe('paymentDateError', () => {
  const emission = '2026-01-01';

  it('allows exactly 150 days after emission and rejects 151', () => {
    expect(MAX_PAYMENT_DAYS).toBe(150);
    expect(latestPaymentDate(emission)).toBe('2026-05-31');
    expect(paymentDateError(emission, '2026-05-31')).toBeNull();
    expect(paymentDateError(emission, '2026-06-01')).toBe('Excede 150 días');
    expect(paymentDateError(emission, '2026-01-01')).toBeNull();
  });

  it('counts across a leap February', () => {
    expect(latestPaymentDate('2028-01-01')).toBe('2028-05-30');
    expect(paymentDateError('2028-01-01', '2028-05-31')).toBe('Excede 150 días');
  });

  it('requires a date', () => {
    expect(paymentDateError(emission, '')).toBe('Requerido');
    expect(paymentDateError(emission, '  ')).toBe('Requerido');
    expect(paymentDateError(emission, null)).toBe('Requerido');
    expect(paymentDateError(emission, undefined)).toBe('Requerido');
  });

  it('parses strictly', () => {
    expect(paymentDateError(emission, '2026-02-30')).toBe('Debe ser una fecha válida');
    expect(paymentDateError(emission, '2026-2-3')).toBe('Debe ser una fecha válida');
    expect(paymentDateError(emission, '03/02/2026')).toBe('Debe ser una fecha válida');
    expect(paymentDateError(emission, '2026-03-02T00:00:00')).toBe('Debe ser una fecha válida');
  });

  it('treats a bad emission date as a bug', () => {
    expect(() => paymentDateError('2026-02-30', '2026-03-01')).toThrow();
  });
});

describe('bulk payment date', () => {
  it('stays within the picker bounds', () => {
    expect(BULK_DATE_MIN).toBe('1900-01-01');
    expect(BULK_DATE_MAX).toBe('2099-12-31');
    expect(bulkPaymentDateError('2099-12-31')).toBeNull();
    expect(bulkPaymentDateError('2100-01-01')).toBe('Debe ser una fecha válida');
    expect(bulkPaymentDateError('1899-12-31')).toBe('Debe ser una fecha válida');
    expect(bulkPaymentDateError('')).toBe('Requerido');
  });
});

describe('exceedingPaymentDates', () => {
  it('lists the items that block the action', () => {
    const items = [
      { id: 1, emissionDate: '2026-01-01', paymentDate: '2026-05-31' },
      { id: 2, emissionDate: '2026-01-01', paymentDate: '2026-06-01' },
      { id: 3, emissionDate: '2026-01-01', paymentDate: null },
    ];
    expect(exceedingPaymentDates(items).map((i) => i.id)).toEqual([2]);
    expect(PAYMENT_DATES_OUT_OF_RANGE_MESSAGE).toBe(
      'Algunas fechas de pago exceden el rango permitido de 150 días desde la emisión.',
    );
  });
});

describe('a line loaded by a bulk upload (no emission date)', () => {
  it('is only checked for presence and validity', () => {
    expect(paymentDateError(null, '2099-01-01')).toBeNull();
    expect(paymentDateError(null, '')).toBe('Requerido');
    expect(paymentDateError(null, '2026-02-30')).toBe('Debe ser una fecha válida');
  });
});

describe('paymentDateNotAfterToday', () => {
  it('refuses today and earlier, accepts tomorrow', () => {
    expect(paymentDateNotAfterToday('2026-02-28', '2026-03-01')).toBe(PAYMENT_DATE_NOT_AFTER_TODAY);
    expect(paymentDateNotAfterToday('2026-03-01', '2026-03-01')).toBe(
      'La fecha de pago debe ser posterior a hoy.',
    );
    expect(paymentDateNotAfterToday('2026-03-02', '2026-03-01')).toBeNull();
  });

  it('names the invoice when a call dates several', () => {
    expect(paymentDateNotAfterTodayOf('A-12')).toBe(
      'La fecha de pago de la factura A-12 debe ser posterior a hoy.',
    );
  });
});

describe('preAuthorizationDateError', () => {
  const emission = '2026-01-01';
  const today = '2026-03-01';
  it('refuses a past date, and today, with the server text, at the field', () => {
    expect(preAuthorizationDateError(emission, '2026-02-28', today)).toBe(PAYMENT_DATE_NOT_AFTER_TODAY);
    expect(preAuthorizationDateError(emission, today, today)).toBe(PAYMENT_DATE_NOT_AFTER_TODAY);
    expect(preAuthorizationDateError(null, '2026-02-28', today)).toBe(PAYMENT_DATE_NOT_AFTER_TODAY);
  });

  it('accepts tomorrow up to 150 days after emission, and keeps the other texts', () => {
    expect(preAuthorizationDateError(emission, '2026-03-02', today)).toBeNull();
    expect(preAuthorizationDateError(emission, '2026-05-31', today)).toBeNull();
    expect(preAuthorizationDateError(emission, '2026-06-01', today)).toBe('Excede 150 días');
    expect(preAuthorizationDateError(emission, null, today)).toBe('Requerido');
    expect(preAuthorizationDateError(emission, '2026-02-30', today)).toBe('Debe ser una fecha válida');
  });
});
