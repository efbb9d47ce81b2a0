import { describe, expect, it } from 'vitest';
import { isXlsxFile, isZipFile } from './bulk-upload';

describe('the browser check of a chosen file (spec §5)', () => {
  it('takes a .zip with a ZIP media type or none, nothing else', () => {
    expect(isZipFile({ name: 'facturas.zip', type: 'application/zip' })).toBe(true);
    expect(isZipFile({ name: 'FACTURAS.ZIP', type: 'application/x-zip-compressed' })).toBe(true);
    expect(isZipFile({ name: 'facturas.zip', type: 'multipart/x-zip' })).toBe(true);
    expect(isZipFile({ name: 'facturas.zip', type: '' })).toBe(true);
    expect(isZipFile({ name: 'facturas.zip', type: 'application/pdf' })).toBe(false);
    expect(isZipFile({ name: 'factura.pdf', type: 'application/zip' })).toBe(false);
  });

  it('takes only .xlsx workbooks', () => {
    const office = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
    expect(isXlsxFile({ name: 'plantilla.xlsx', type: office })).toBe(true);
    expect(isXlsxFile({ name: 'plantilla.xlsx', type: '' })).toBe(true);
    expect(isXlsxFile({ name: 'plantilla.xls', type: 'application/vnd.ms-excel' })).toBe(false);
    expect(isXlsxFile({ name: 'plantilla.csv', type: 'text/csv' })).toBe(false);
    expect(isXlsxFile({ name: 'plantilla.xlsx', type: 'text/csv' })).toBe(false);
  });
});
