import type { Writable } from 'node:stream';
import ExcelJS from 'exceljs';
import { AUDIT_TRAIL_COLUMNS } from '../../../src/domain/audit-trail';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { trailStatusLabel } from '../../../src/domain/invoice-status';
import type { Db } from '../../db/database';
import { type AuditTrailRow, type AuditTrailScope, auditTrailPage } from './audit-trail.repository';

// Rows read per query: the export holds one page at a time, whatever the range holds.
const PAGE_ROWS = 2000;
// The sheet's column widths, in AUDIT_TRAIL_COLUMNS order, then the operator's two company columns.
const WIDTHS = [14, 40, 14, 14, 24, 32, 40, 20, 66];
const COMPANY_COLUMNS = ['Emisor', 'Receptor'] as const;

function cells(row: AuditTrailRow, withCompanies: boolean): (string | number)[] {
  const base = [
    row.folio ?? '',
    row.uuid,
    trailStatusLabel(row.fromStatus),
    trailStatusLabel(row.toStatus),
    row.actor,
    row.actorCompany ?? '',
    row.reason ?? '',
    row.at,
    row.hash,
  ];
  return withCompanies ? [...base, row.emitterName, row.receiverName] : base;
}

/**
 * Writes the audit trail of the scope's invoices in the range to `out` as an XLSX (exceljs's streaming writer,
 * one page of rows in memory at a time): sheet «Bitácora», one row per event in event order with the columns of
 * AUDIT_TRAIL_COLUMNS (statuses with their Spanish labels, the time in Mexico City, the chain's stored hash);
 * the operator's export (all companies) adds Emisor and Receptor. Returns how many events it wrote.
 */
export async function writeAuditTrail(
  db: Db,
  scope: AuditTrailScope,
  range: { from: IsoDate; to: IsoDate },
  out: Writable,
  now: Date,
): Promise<number> {
  const withCompanies = 'all' in scope;
  const workbook = new ExcelJS.stream.xlsx.WorkbookWriter({
    stream: out,
    useStyles: true,
    useSharedStrings: false,
  });
  workbook.creator = 'Flujo';
  workbook.created = now;
  const sheet = workbook.addWorksheet('Bitácora', { views: [{ state: 'frozen', ySplit: 1 }] });
  const headers = withCompanies ? [...AUDIT_TRAIL_COLUMNS, ...COMPANY_COLUMNS] : [...AUDIT_TRAIL_COLUMNS];
  sheet.columns = headers.map((header, index) => ({
    header,
    key: String(index),
    width: WIDTHS[index] ?? 32,
  }));
  sheet.getRow(1).font = { bold: true };
  sheet.getRow(1).commit();
  let written = 0;
  let afterId = 0;
  for (;;) {
    const rows = await auditTrailPage(db, scope, range, afterId, PAGE_ROWS);
    for (const row of rows) sheet.addRow(cells(row, withCompanies)).commit();
    written += rows.length;
    const last = rows.at(-1);
    if (!last || rows.length < PAGE_ROWS) break;
    afterId = last.id;
  }
  sheet.commit();
  await workbook.commit();
  return written;
}
