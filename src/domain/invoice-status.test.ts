import { describe, expect, it } from 'vitest';
import {
  CORPORATE_STATUS_FILTER_OPTIONS,
  INVOICE_STATUS_CODES,
  InvoiceStatus,
  isInvoiceStatusCode,
  isInvoiceStatusFilter,
  PROVIDER_STATUS_FILTER_OPTIONS,
  PROVIDER_STATUS_MEANINGS,
  PROVIDER_STATUSES,
  providerStatusLabel,
  statusFromName,
  statusName,
} from './invoice-status';

describe('invoice status', () => {
  it('has the spec §4 codes', () => {
    expect(InvoiceStatus).toEqual({
      PAID: 10,
      REJECTED: 20,
      APPROVED: 30,
      PENDING: 40,
      PROCESS: 50,
      AVAILABLE: 60,
      DISABLED: 70,
      ALL: 80,
      FACTORING: 90,
    });
    expect(INVOICE_STATUS_CODES).toEqual([10, 20, 30, 40, 50, 60, 70, 90]);
  });

  it('lists the provider statuses in the spec §4 table order, each real status once', () => {
    expect(PROVIDER_STATUSES).toEqual([60, 40, 30, 50, 10, 90, 70, 20]);
    expect([...PROVIDER_STATUSES].sort()).toEqual([...INVOICE_STATUS_CODES].sort());
    expect(PROVIDER_STATUS_FILTER_OPTIONS.slice(1).map((o) => o.value)).toEqual(PROVIDER_STATUSES);
  });

  it('labels statuses for providers', () => {
    expect(providerStatusLabel(InvoiceStatus.AVAILABLE)).toBe('Por Autorizar');
    expect(providerStatusLabel(InvoiceStatus.PENDING)).toBe('Solicitado');
    expect(providerStatusLabel(InvoiceStatus.APPROVED)).toBe('Autorizada');
    expect(providerStatusLabel(InvoiceStatus.PROCESS)).toBe('En trámite');
    expect(providerStatusLabel(InvoiceStatus.PAID)).toBe('Pagada');
    expect(providerStatusLabel(InvoiceStatus.FACTORING)).toBe('Pagada');
    expect(providerStatusLabel(InvoiceStatus.DISABLED)).toBe('Cancelada');
    expect(providerStatusLabel(InvoiceStatus.REJECTED)).toBe('Rechazada');
    for (const code of INVOICE_STATUS_CODES) expect(PROVIDER_STATUS_MEANINGS[code]).toMatch(/\S/);
  });

  it('corporate filter has every status but PROCESS and FACTORING, plus Todas', () => {
    expect(CORPORATE_STATUS_FILTER_OPTIONS.map((o) => o.value).sort()).toEqual([10, 20, 30, 40, 60, 70, 80]);
    expect(CORPORATE_STATUS_FILTER_OPTIONS[0]).toEqual({ value: 80, label: 'Todas' });
    expect(PROVIDER_STATUS_FILTER_OPTIONS).toHaveLength(9);
  });

  it('recognizes codes and names', () => {
    expect(isInvoiceStatusCode(60)).toBe(true);
    expect(isInvoiceStatusCode(80)).toBe(false);
    expect(isInvoiceStatusCode('60')).toBe(false);
    expect(isInvoiceStatusFilter(80)).toBe(true);
    expect(statusName(90)).toBe('FACTORING');
    expect(statusFromName('PAID')).toBe(10);
    expect(statusFromName('ALL')).toBeNull();
    expect(statusFromName('paid')).toBeNull();
  });
});
