import { describe, expect, it } from 'vitest';
import {
  ADVANCED_STATUS_FILTER_OPTIONS,
  advancedInvoicesZipName,
  advancedStatusFilter,
  isAdvancedStatus,
} from './advanced-invoices';
import { InvoiceStatus } from './invoice-status';

describe('advanced invoices', () => {
  it('are the ones in process or paid, not factoring', () => {
    expect(isAdvancedStatus(InvoiceStatus.PROCESS)).toBe(true);
    expect(isAdvancedStatus(InvoiceStatus.PAID)).toBe(true);
    expect(isAdvancedStatus(InvoiceStatus.FACTORING)).toBe(false);
    expect(isAdvancedStatus(InvoiceStatus.APPROVED)).toBe(false);
  });

  it('filter by Todas, En trámite or Pagada', () => {
    expect(ADVANCED_STATUS_FILTER_OPTIONS).toEqual([
      { value: InvoiceStatus.ALL, label: 'Todas' },
      { value: InvoiceStatus.PROCESS, label: 'En trámite' },
      { value: InvoiceStatus.PAID, label: 'Pagada' },
    ]);
  });

  it('read a status the page cannot show as Todas', () => {
    expect(advancedStatusFilter(InvoiceStatus.PAID)).toBe(InvoiceStatus.PAID);
    expect(advancedStatusFilter(InvoiceStatus.AVAILABLE)).toBe(InvoiceStatus.ALL);
    expect(advancedStatusFilter(InvoiceStatus.ALL)).toBe(InvoiceStatus.ALL);
  });

  it('download as one dated ZIP', () => {
    expect(advancedInvoicesZipName('2026-11-22')).toBe('facturas-adelantadas-2026-11-22.zip');
  });
});
