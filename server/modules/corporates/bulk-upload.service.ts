import ExcelJS from 'exceljs';
import {
  BULK_UPLOAD_MESSAGES,
  MAX_COMPRESSION_RATIO,
  MAX_TEMPLATE_ROWS,
  MAX_XLSX_ENTRIES,
  MAX_XLSX_SHARED_STRINGS_BYTES,
  MAX_XLSX_UNCOMPRESSED_BYTES,
  MAX_ZIP_ENTRIES,
  MAX_ZIP_UNCOMPRESSED_BYTES,
  RATIO_FREE_BYTES,
  TEMPLATE_COLUMNS,
  TEMPLATE_SHEET_NAME,
} from '../../../src/domain/bulk-upload';
import { displayDate, type IsoDate, isIsoDate, parseDisplayDate } from '../../../src/domain/calendar-date';
import { invoiceLabel } from '../../../src/domain/invoice-label';
import { formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import {
  latestPaymentDate,
  PAYMENT_DATE_INVALID,
  paymentDateError,
  paymentDateNotAfterToday,
} from '../../../src/domain/payment-date';
import type {
  BulkUploadLine,
  RefusedZipFile,
  TemplateUploadLine,
  TemplateUploadResult,
  ZipUploadRefusal,
} from '../../../src/domain/schemas/corporates';
import {
  acceptedInvoiceEvents,
  invoiceRefusal,
  PRE_AUTHORIZABLE_STATUSES,
} from '../../../src/machines/invoice-actions';
import type { LifecycleActor } from '../../../src/machines/invoice-lifecycle.machine';
import { type Cfdi, cfdiRejectReasons } from '../../cfdi/parse-cfdi';
import { DTD_DECLARATION, MAX_XML_BYTES, xmlRejectReasons } from '../../cfdi/safe-xml';
import type { Db } from '../../db/database';
import { extractZipEntries, inspectZip, type ZipEntryInfo } from '../../uploads/safe-zip';
import { UploadRefusal } from '../../uploads/upload-refusal';
import { findCompaniesByRfc, findCompanySatLink } from '../accounts/company.repository';
import {
  findInvoicesByUuid,
  findReceivedInvoicesInStatuses,
  type InvoiceFactsRow,
  storedCfdi,
} from '../invoices/invoice.repository';
import { type InvoiceCaller, lifecycleActor } from '../invoices/invoice-access';
import { serieFolio } from '../invoices/invoice-list';
import { lifecycleInvoice } from '../invoices/lifecycle.service';
import type { CfdiAuthenticity } from '../sat/cfdi-authenticity';
import { importProvenCfdi, type ProvenCfdi, proveCfdiFiles } from '../sat/cfdi-import.service';
import { findActiveAllianceRates } from './quotations.repository';

// Bulk authorization by file (issue 14, docs/decisions/0032-bulk-uploads.md): the XLSX template of the
// invoices the corporate may pre-authorize, its upload, and a ZIP of CFDI XML. Uploads change no invoice
// status: they return the lines to quote; the quotation's accept calls authorize them.

// --- Which invoices the corporate may pre-authorize: the lifecycle machine says ---

/**
 * Whether the machine accepts a payment date for this invoice from this corporate: pre-authorizing it (Por
 * Autorizar, Rechazada) or answering its provider's request (Solicitado), whichever the machine offers.
 */
function mayPreAuthorize(row: InvoiceFactsRow, actor: LifecycleActor): boolean {
  const accepted = acceptedInvoiceEvents(lifecycleInvoice(row), actor);
  return accepted.has('invoice.preAuthorize') || accepted.has('invoice.authorize');
}

/** The machine's refusal, in the lifecycle table's words, for an invoice it will not let be pre-authorized. */
function preAuthorizationRefusal(row: InvoiceFactsRow): string {
  return invoiceRefusal('invoice.preAuthorize', row.status, invoiceLabel(row));
}

/** Null when the payment date is fine for this invoice (domain rule, then "after today"), else why not. */
function paymentDateProblem(emission: IsoDate, paymentDate: string, today: IsoDate): string | null {
  const error = paymentDateError(emission, paymentDate);
  if (error) return error;
  return paymentDateNotAfterToday(paymentDate, today);
}

// --- The template ---

const TEMPLATE_KEYS = Object.keys(TEMPLATE_COLUMNS) as (keyof typeof TEMPLATE_COLUMNS)[];
const DATE_FORMAT = 'dd/mm/yyyy';
const COLUMN_WIDTHS: Record<keyof typeof TEMPLATE_COLUMNS, number> = {
  fiscalFolio: 40,
  serieFolio: 14,
  emitterRfc: 16,
  emitterName: 36,
  emissionDate: 16,
  currency: 9,
  amount: 16,
  paymentDate: 16,
};

/** A calendar date as the UTC midnight Date exceljs turns into an Excel date serial. */
function excelDate(date: IsoDate): Date {
  return new Date(`${date}T00:00:00Z`);
}

/**
 * GET corporates/template/: an XLSX with one row per received invoice the lifecycle machine lets this corporate
 * pre-authorize (newest emission first, at most MAX_TEMPLATE_ROWS), Spanish headers, the header row frozen,
 * and a payment-date column whose validation allows the emission date to 150 days after it.
 */
export async function buildTemplate(db: Db, caller: InvoiceCaller): Promise<Buffer> {
  const actor = lifecycleActor(caller, 'corporate');
  // The statuses narrow the read; the machine decides each row.
  const rows = (
    await findReceivedInvoicesInStatuses(
      db,
      caller.companyId,
      PRE_AUTHORIZABLE_STATUSES,
      MAX_TEMPLATE_ROWS + 1,
    )
  ).filter((row) => mayPreAuthorize(row, actor));
  const workbook = new ExcelJS.Workbook();
  workbook.creator = 'Flujo';
  const sheet = workbook.addWorksheet(TEMPLATE_SHEET_NAME, { views: [{ state: 'frozen', ySplit: 1 }] });
  sheet.columns = TEMPLATE_KEYS.map((key) => ({
    header: TEMPLATE_COLUMNS[key],
    key,
    width: COLUMN_WIDTHS[key],
    style:
      key === 'emissionDate' || key === 'paymentDate'
        ? { numFmt: DATE_FORMAT }
        : key === 'amount'
          ? { numFmt: '#,##0.00' }
          : {},
  }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows.slice(0, MAX_TEMPLATE_ROWS)) {
    const added = sheet.addRow({
      fiscalFolio: row.cfdi_uuid,
      serieFolio: serieFolio(row.serie, row.folio) ?? '',
      emitterRfc: row.emitter_rfc,
      emitterName: row.emitter_name,
      emissionDate: excelDate(row.date_of_emission),
      currency: row.currency,
      // A number the spreadsheet can add up; the exact amount is the centavos' text.
      amount: Number(formatMoneyAmount(parseMoney(row.amount))),
    });
    added.getCell('paymentDate').dataValidation = {
      type: 'date',
      operator: 'between',
      allowBlank: true,
      showErrorMessage: true,
      errorStyle: 'stop',
      errorTitle: BULK_UPLOAD_MESSAGES.dateValidationTitle,
      error: BULK_UPLOAD_MESSAGES.dateValidationError,
      showInputMessage: true,
      promptTitle: BULK_UPLOAD_MESSAGES.dateValidationTitle,
      prompt: BULK_UPLOAD_MESSAGES.dateValidationError,
      formulae: [excelDate(row.date_of_emission), excelDate(latestPaymentDate(row.date_of_emission))],
    };
  }
  if (rows.length > MAX_TEMPLATE_ROWS) {
    sheet.getCell(`${String.fromCharCode(65 + TEMPLATE_KEYS.length + 1)}1`).value =
      BULK_UPLOAD_MESSAGES.templateTruncated(MAX_TEMPLATE_ROWS);
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

// --- The template's upload ---

const XLSX_LIMITS = {
  maxEntries: MAX_XLSX_ENTRIES,
  maxTotalBytes: MAX_XLSX_UNCOMPRESSED_BYTES,
  maxRatio: MAX_COMPRESSION_RATIO,
  ratioFreeBytes: RATIO_FREE_BYTES,
};
const WORKSHEET_PART = /^xl\/worksheets\/[^/]+\.xml$/;
const SHARED_STRINGS_PART = 'xl/sharedStrings.xml';
const XML_PART = /\.(xml|rels|vml)$/i;
// NOTE: ECMA-376 puts <dimension> (the used range) before <sheetData>; its head is enough to read it.
const WORKSHEET_HEAD_CHARS = 64 * 1024;
const DIMENSION = /<(?:\w+:)?dimension\s+ref="[A-Z]{1,3}\d+(?::[A-Z]{1,3}(\d+))?"/;
// Worksheet parts exceljs need not build for a data-only read.
const IGNORED_WORKSHEET_NODES = [
  'dataValidations',
  'conditionalFormatting',
  'hyperlinks',
  'drawing',
  'picture',
  'tableParts',
  'extLst',
  'autoFilter',
  'mergeCells',
  'headerFooter',
  'rowBreaks',
  'pageSetup',
  'printOptions',
  'pageMargins',
  'sheetProtection',
];

/** The last row a worksheet part declares in its <dimension>, or null when it declares none. */
function declaredLastRow(part: Uint8Array): number | null {
  const head = new TextDecoder('utf-8').decode(part.subarray(0, WORKSHEET_HEAD_CHARS));
  const match = DIMENSION.exec(head);
  if (!match) return null;
  return Number(match[1] ?? 1);
}

/**
 * Checks an XLSX (a ZIP) before exceljs reads it: the archive's limits from its central directory, every
 * part inflated within its declared size, the shared strings bounded, and no worksheet declaring more rows
 * than the template may have.
 */
function checkXlsxArchive(data: Uint8Array): void {
  const damaged = BULK_UPLOAD_MESSAGES.damagedXlsx;
  const entries = inspectZip(data, XLSX_LIMITS, damaged);
  const sharedStrings = entries.find((entry) => entry.name === SHARED_STRINGS_PART);
  if (sharedStrings && sharedStrings.size > MAX_XLSX_SHARED_STRINGS_BYTES) {
    throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.sharedStringsTooLarge);
  }
  const parts = extractZipEntries(data, entries, () => true, damaged);
  for (const [name, part] of parts) {
    // exceljs's XML parser keeps no DTD, but no spreadsheet needs one: refuse it as the CFDI reader does.
    if (XML_PART.test(name) && DTD_DECLARATION.test(new TextDecoder('utf-8').decode(part))) {
      throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.xlsxDtd);
    }
    if (!WORKSHEET_PART.test(name)) continue;
    const lastRow = declaredLastRow(part);
    if (lastRow !== null && lastRow > MAX_TEMPLATE_ROWS + 1) {
      throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.sheetTooLong(lastRow, MAX_TEMPLATE_ROWS));
    }
  }
}

type CellRead =
  | { kind: 'empty' }
  | { kind: 'formula' }
  | { kind: 'text'; text: string }
  | { kind: 'date'; date: IsoDate }
  | { kind: 'other' };

/** What a cell holds, read as data: a formula is never evaluated nor its cached result trusted. */
function readCell(value: ExcelJS.CellValue): CellRead {
  if (value === null || value === undefined) return { kind: 'empty' };
  if (value instanceof Date) {
    return Number.isNaN(value.getTime())
      ? { kind: 'other' }
      : { kind: 'date', date: value.toISOString().slice(0, 10) };
  }
  if (typeof value === 'string')
    return value.trim() === '' ? { kind: 'empty' } : { kind: 'text', text: value.trim() };
  if (typeof value === 'object') {
    if ('formula' in value || 'sharedFormula' in value) return { kind: 'formula' };
    if ('richText' in value) {
      const text = value.richText
        .map((run) => run.text)
        .join('')
        .trim();
      return text === '' ? { kind: 'empty' } : { kind: 'text', text };
    }
    if ('text' in value && typeof value.text === 'string') return { kind: 'text', text: value.text.trim() };
  }
  return { kind: 'other' };
}

/** A payment-date cell as an ISO date: a date cell, 'YYYY-MM-DD' or 'DD/MM/YYYY' text; else what is wrong. */
function cellDate(cell: CellRead): { date: string } | { error: string } {
  if (cell.kind === 'formula') return { error: BULK_UPLOAD_MESSAGES.formula };
  if (cell.kind === 'date') return { date: cell.date };
  if (cell.kind === 'text') {
    if (isIsoDate(cell.text)) return { date: cell.text };
    const typed = parseDisplayDate(cell.text);
    return typed ? { date: typed } : { error: PAYMENT_DATE_INVALID };
  }
  return { error: PAYMENT_DATE_INVALID };
}

interface TemplateRow {
  row: number;
  uuid: string;
  paymentDate: string;
}

/**
 * POST corporates/upload/excel/: reads the filled template as data and checks every row with a payment date
 * (the invoice is one of the corporate's received invoices, the machine lets it be pre-authorized, the date is
 * valid, after today and within 150 days of emission). Any wrong row → no processed invoices and every
 * problem in validation_errors, naming row and column. Writes nothing.
 */
export async function readTemplateUpload(
  db: Db,
  caller: InvoiceCaller,
  data: Buffer,
  today: IsoDate,
): Promise<TemplateUploadResult> {
  checkXlsxArchive(data);
  const workbook = new ExcelJS.Workbook();
  try {
    // exceljs's load options reach its worksheet reader (maxRows, ignoreNodes), which its typings omit.
    const options = { maxRows: MAX_TEMPLATE_ROWS + 1, ignoreNodes: IGNORED_WORKSHEET_NODES };
    // exceljs types its input as the Buffer of older @types/node; the bytes are the same.
    type LoadInput = Parameters<typeof workbook.xlsx.load>;
    await workbook.xlsx.load(data as unknown as LoadInput[0], options as LoadInput[1]);
  } catch {
    throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.damagedXlsx);
  }
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.noWorksheet);
  if (sheet.rowCount > MAX_TEMPLATE_ROWS + 1) {
    throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.sheetTooLong(sheet.rowCount, MAX_TEMPLATE_ROWS));
  }
  const header = sheet.getRow(1);
  const columnOf = (title: string): number => {
    for (let column = 1; column <= header.cellCount; column += 1) {
      const cell = readCell(header.getCell(column).value);
      if (cell.kind === 'text' && cell.text.toLowerCase() === title.toLowerCase()) return column;
    }
    throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.missingColumn(title));
  };
  const uuidColumn = columnOf(TEMPLATE_COLUMNS.fiscalFolio);
  const dateColumn = columnOf(TEMPLATE_COLUMNS.paymentDate);

  const errors: Record<string, string[]> = {};
  const fail = (row: number, field: 'fiscal_folio' | 'payment_date', message: string) => {
    const header = field === 'fiscal_folio' ? TEMPLATE_COLUMNS.fiscalFolio : TEMPLATE_COLUMNS.paymentDate;
    errors[`${row}.${field}`] = [BULK_UPLOAD_MESSAGES.cell(row, header, message)];
  };
  const rows: TemplateRow[] = [];
  const firstRowOf = new Map<string, number>();
  for (let number = 2; number <= sheet.rowCount; number += 1) {
    const row = sheet.getRow(number);
    const uuidCell = readCell(row.getCell(uuidColumn).value);
    const dateCell = readCell(row.getCell(dateColumn).value);
    // A row without a payment date is an invoice the corporate did not choose.
    if (dateCell.kind === 'empty') continue;
    const date = cellDate(dateCell);
    if (uuidCell.kind === 'formula') {
      fail(number, 'fiscal_folio', BULK_UPLOAD_MESSAGES.formula);
      continue;
    }
    if (uuidCell.kind !== 'text') {
      fail(number, 'fiscal_folio', BULK_UPLOAD_MESSAGES.uuidMissing);
      continue;
    }
    if ('error' in date) {
      fail(number, 'payment_date', date.error);
      continue;
    }
    const uuid = uuidCell.text.toUpperCase();
    const first = firstRowOf.get(uuid);
    if (first !== undefined) {
      fail(number, 'fiscal_folio', BULK_UPLOAD_MESSAGES.repeated(first));
      continue;
    }
    firstRowOf.set(uuid, number);
    rows.push({ row: number, uuid, paymentDate: date.date });
  }
  if (rows.length === 0 && Object.keys(errors).length === 0) {
    errors._form = [BULK_UPLOAD_MESSAGES.noPaymentDates];
  }

  const actor = lifecycleActor(caller, 'corporate');
  const known = await findInvoicesByUuid(
    db,
    rows.map((row) => row.uuid),
  );
  const processed: TemplateUploadLine[] = [];
  for (const { row, uuid, paymentDate } of rows) {
    const invoice = known.get(uuid);
    // Another company's invoice is reported exactly like a missing one.
    if (!invoice || invoice.receiver_company_id !== caller.companyId) {
      fail(row, 'fiscal_folio', BULK_UPLOAD_MESSAGES.notReceived);
      continue;
    }
    if (!mayPreAuthorize(invoice, actor)) {
      fail(row, 'fiscal_folio', preAuthorizationRefusal(invoice));
      continue;
    }
    const problem = paymentDateProblem(invoice.date_of_emission, paymentDate, today);
    if (problem) {
      fail(row, 'payment_date', problem);
      continue;
    }
    processed.push({ invoice_id: invoice.id, fiscal_folio: invoice.cfdi_uuid, payment_date: paymentDate });
  }
  if (Object.keys(errors).length > 0) return { processed_invoices: [], validation_errors: errors };
  return { processed_invoices: processed, validation_errors: {} };
}

// --- The ZIP of CFDI XML ---

const ZIP_LIMITS = {
  maxEntries: MAX_ZIP_ENTRIES,
  maxTotalBytes: MAX_ZIP_UNCOMPRESSED_BYTES,
  maxRatio: MAX_COMPRESSION_RATIO,
  ratioFreeBytes: RATIO_FREE_BYTES,
};
// Lines of the 400's detail; `files` carries them all.
const MAX_DETAIL_LINES = 50;

/** The 400 of a ZIP with bad entries: every bad file and its reason. Nothing was written. */
export class ZipEntriesRefused extends Error {
  readonly statusCode = 400;
  constructor(readonly files: readonly RefusedZipFile[]) {
    super(BULK_UPLOAD_MESSAGES.zipRefused(files.length));
  }
  body(): ZipUploadRefusal {
    const lines = this.files.slice(0, MAX_DETAIL_LINES).map((file) => `${file.name}: ${file.reason}`);
    if (this.files.length > MAX_DETAIL_LINES) {
      lines.push(BULK_UPLOAD_MESSAGES.andMore(this.files.length - MAX_DETAIL_LINES));
    }
    return { detail: [this.message, ...lines].join('\n'), files: [...this.files] };
  }
}

/** Entries a ZIP made on a desktop carries besides the XML, skipped: folders, macOS metadata, the PAC's PDFs. */
function isSkippedEntry(entry: ZipEntryInfo): boolean {
  const base = entry.name.split('/').pop() ?? '';
  return (
    entry.directory ||
    entry.name.startsWith('__MACOSX/') ||
    base.startsWith('.') ||
    base.toLowerCase().endsWith('.pdf')
  );
}

/** Is an XML file by name. */
function isXmlName(name: string): boolean {
  return name.toLowerCase().endsWith('.xml');
}

interface ZipCfdi {
  name: string;
  cfdi: Cfdi;
  content: Uint8Array;
  /** Its proven seal, handed to the importer so nothing is verified twice. */
  proven: ProvenCfdi;
}

/**
 * POST corporates/upload/zip/: every XML of the ZIP read by the CFDI importer's parser and checked (stamped,
 * received by this corporate, issued by an allied provider, the payment date within 150 days of emission, an
 * invoice already in Flujo still pre-authorizable); the ones not yet in Flujo are imported through the
 * importer in one transaction. Any bad entry → ZipEntriesRefused naming every bad file, nothing imported.
 * Changes no invoice status: returns the lines to quote, in the ZIP's order.
 */
export async function processZipUpload(
  db: Db,
  authenticity: CfdiAuthenticity,
  caller: InvoiceCaller,
  data: Buffer,
  paymentDate: IsoDate,
  today: IsoDate,
): Promise<BulkUploadLine[]> {
  const damaged = BULK_UPLOAD_MESSAGES.damagedZip;
  const entries = inspectZip(data, ZIP_LIMITS, damaged);
  const bad: RefusedZipFile[] = [];
  const xmlEntries: ZipEntryInfo[] = [];
  for (const entry of entries) {
    if (isSkippedEntry(entry)) continue;
    if (!isXmlName(entry.name)) bad.push({ name: entry.name, reason: BULK_UPLOAD_MESSAGES.notXmlEntry });
    else if (entry.size > MAX_XML_BYTES) bad.push({ name: entry.name, reason: xmlRejectReasons.tooLarge });
    else xmlEntries.push(entry);
  }
  if (xmlEntries.length === 0 && bad.length === 0) throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.noXml);
  const wanted = new Set(xmlEntries.map((entry) => entry.name));
  const contents = extractZipEntries(data, entries, (entry) => wanted.has(entry.name), damaged);

  const parsed: ZipCfdi[] = [];
  const seen = new Set<string>();
  for (const entry of xmlEntries) {
    const content = contents.get(entry.name) as Uint8Array;
    // The seal first, so a forged file is named beside every other bad one before anything is asked or written.
    const { proven, refused } = proveCfdiFiles([{ name: entry.name, content }], authenticity);
    const [first] = proven;
    if (!first) bad.push(...refused);
    else if (seen.has(first.cfdi.uuid))
      bad.push({ name: entry.name, reason: cfdiRejectReasons.duplicateInBatch });
    else {
      seen.add(first.cfdi.uuid);
      parsed.push({ name: entry.name, cfdi: first.cfdi, content, proven: first });
    }
  }

  const company = await findCompanySatLink(db, caller.companyId);
  if (!company.rfc) throw new UploadRefusal(400, BULK_UPLOAD_MESSAGES.noRfc);
  const emitterRfcs = [...new Set(parsed.map((item) => item.cfdi.issuer.rfc))];
  const emitters = new Map(
    (emitterRfcs.length === 0 ? [] : await findCompaniesByRfc(db, emitterRfcs)).flatMap((c) =>
      c.rfc === null ? [] : [[c.rfc, c.id] as const],
    ),
  );
  const allied = await findActiveAllianceRates(db, caller.companyId, [...emitters.values()]);
  const known = await findInvoicesByUuid(
    db,
    parsed.map((item) => item.cfdi.uuid),
  );
  const actor = lifecycleActor(caller, 'corporate');

  const lines: { name: string; existingId: number | null; uuid: string }[] = [];
  const fresh: ProvenCfdi[] = [];
  const stored = await storedCfdi(
    db,
    parsed.map((item) => item.cfdi.uuid),
  );
  for (const { name, cfdi, proven } of parsed) {
    const held = stored.get(cfdi.uuid);
    if (held && held.xml !== proven.xml) {
      // Another file under a folio fiscal Flujo holds: the importer refuses it and records it for operators.
      fresh.push(proven);
      continue;
    }
    const reason = zipCfdiProblem(cfdi, {
      corporateRfc: company.rfc,
      emitterId: emitters.get(cfdi.issuer.rfc),
      allied,
      existing: known.get(cfdi.uuid),
      companyId: caller.companyId,
      actor,
      paymentDate,
      today,
    });
    if (reason) {
      bad.push({ name, reason });
      continue;
    }
    const existing = known.get(cfdi.uuid);
    lines.push({ name, existingId: existing?.id ?? null, uuid: cfdi.uuid });
    if (!existing) fresh.push(proven);
  }
  if (bad.length > 0) throw new ZipEntriesRefused(sortedByZipOrder(bad, entries));

  const importedIds = await importAllOrNothing(db, authenticity, fresh, `carga ZIP (${caller.username})`);
  return lines.map((line) => ({
    invoice_id: line.existingId ?? (importedIds.get(line.uuid) as number),
    payment_date: paymentDate,
  }));
}

/** The bad files in the order the ZIP lists them. */
function sortedByZipOrder(
  bad: readonly RefusedZipFile[],
  entries: readonly ZipEntryInfo[],
): RefusedZipFile[] {
  const order = new Map(entries.map((entry, index) => [entry.name, index]));
  return [...bad].sort((a, b) => (order.get(a.name) ?? 0) - (order.get(b.name) ?? 0));
}

/** Why a parsed CFDI of the ZIP cannot be pre-authorized by this corporate, or null. */
function zipCfdiProblem(
  cfdi: Cfdi,
  facts: {
    corporateRfc: string;
    emitterId: number | undefined;
    allied: ReadonlyMap<number, string>;
    existing: InvoiceFactsRow | undefined;
    companyId: number;
    actor: LifecycleActor;
    paymentDate: IsoDate;
    today: IsoDate;
  },
): string | null {
  if (cfdi.receiver.rfc !== facts.corporateRfc)
    return BULK_UPLOAD_MESSAGES.foreignReceiver(cfdi.receiver.rfc);
  if (facts.emitterId === undefined || !facts.allied.has(facts.emitterId)) {
    return BULK_UPLOAD_MESSAGES.noAlliance(cfdi.issuer.rfc);
  }
  const { existing } = facts;
  if (existing && existing.receiver_company_id !== facts.companyId)
    return BULK_UPLOAD_MESSAGES.otherReceiverInvoice;
  if (existing && !mayPreAuthorize(existing, facts.actor)) return preAuthorizationRefusal(existing);
  const emission = existing?.date_of_emission ?? cfdi.issuedAt.slice(0, 10);
  const problem = paymentDateProblem(emission, facts.paymentDate, facts.today);
  return problem ? BULK_UPLOAD_MESSAGES.paymentDateProblem(displayDate(facts.paymentDate), problem) : null;
}

/**
 * Imports the new CFDI through the importer in one transaction: if the importer refuses any (say, imported
 * meanwhile by another request), the transaction rolls back and the refusal names those files.
 */
async function importAllOrNothing(
  db: Db,
  authenticity: CfdiAuthenticity,
  files: readonly ProvenCfdi[],
  actorLabel: string,
): Promise<Map<string, number>> {
  if (files.length === 0) return new Map();
  // SAT is asked in the background (the cfdi-sat-check job): the lines can be quoted now, not advanced.
  const result = await importProvenCfdi(db, files, {
    actorLabel,
    authenticity,
    allOrNothing: true,
    satCheck: 'background',
  });
  if (result.rejected.length > 0) throw new ZipEntriesRefused(result.rejected);
  return new Map(result.imported.map((item) => [item.uuid, item.id]));
}
