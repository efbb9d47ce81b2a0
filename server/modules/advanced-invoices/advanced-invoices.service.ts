import { type Zippable, zipSync } from 'fflate';
import { isAdvancedStatus, MAX_DOWNLOAD_INVOICES } from '../../../src/domain/advanced-invoices';
import { displayDate, type IsoDate } from '../../../src/domain/calendar-date';
import { invoiceNotFoundNamed } from '../../../src/domain/invoice-label';
import { InvoiceStatus, PROVIDER_STATUS_LABELS } from '../../../src/domain/invoice-status';
import { formatMoneyAmount, parseMoney, subtractMoney } from '../../../src/domain/money';
import { displayedAnnualRate, RATE_LABEL } from '../../../src/domain/quote';
import { MAX_SERIAL_ID, MESSAGES } from '../../../src/domain/schemas/fields';
import { INVOICE_BATCH_MESSAGES } from '../../../src/domain/schemas/quotations';
import type { Db } from '../../db/database';
import { businessDate } from '../../http/business-date';
import { FieldErrors } from '../../http/errors';
import { renderSummaryPdf, type SummaryDocument } from '../../pdf/summary-pdf';
import { type InvoiceCaller, InvoiceRequestError, invoiceLabel } from '../invoices/invoice-access';
import { moneyText } from '../invoices/invoice-notifications';
import { type DownloadableInvoice, findIssuedInvoices } from './advanced-invoices.repository';

export const DOWNLOAD_MESSAGES = {
  notAList: 'Envía la lista de facturas a descargar.',
  empty: INVOICE_BATCH_MESSAGES.empty,
  tooMany: `Puedes descargar como máximo ${MAX_DOWNLOAD_INVOICES} facturas a la vez.`,
  badId: 'Cada factura se indica con su id numérico.',
} as const;

const PENDING_TEXT = 'Pendiente';
const NOT_APPLICABLE = '-';
// NOTE: the PDF is Flujo's summary, not SAT's "representación impresa" (it carries no seal, chain or QR code).
const PDF_FOOTER =
  'Documento informativo generado por Flujo. El comprobante fiscal válido es el archivo XML (CFDI) que lo ' +
  'acompaña, tal como se importó desde el SAT.';
// Characters a file name keeps; anything else (a CFDI Serie or Folio may hold '/', spaces...) becomes '_'.
const UNSAFE_FILE_CHARS = /[^A-Za-z0-9._-]+/g;
// Already-compressed PDFs are stored; XML deflates well.
const XML_LEVEL = 6;
const PDF_LEVEL = 0;

/**
 * The body of POST providers/advanced-invoices/download/: {invoice_ids: [1..100 numeric ids]}. Repeated ids
 * count once. Anything else is a 400 with a Spanish message for invoice_ids.
 */
export function parseDownloadBody(body: unknown): number[] {
  const value =
    typeof body === 'object' && body !== null && !Array.isArray(body)
      ? (body as Record<string, unknown>).invoice_ids
      : undefined;
  const refuse = (message: string): never => {
    throw new FieldErrors({ invoice_ids: [message] });
  };
  if (value === undefined || value === null) return refuse(MESSAGES.required);
  if (!Array.isArray(value)) return refuse(DOWNLOAD_MESSAGES.notAList);
  if (value.length === 0) return refuse(DOWNLOAD_MESSAGES.empty);
  if (!value.every((id) => typeof id === 'number' && Number.isSafeInteger(id) && id > 0)) {
    return refuse(DOWNLOAD_MESSAGES.badId);
  }
  const ids = [...new Set(value as number[])];
  if (ids.length > MAX_DOWNLOAD_INVOICES) return refuse(DOWNLOAD_MESSAGES.tooMany);
  return ids;
}

function notAdvanced(row: DownloadableInvoice): InvoiceRequestError {
  return new InvoiceRequestError(
    409,
    `La factura ${invoiceLabel(row)} no está adelantada (su estado es «${PROVIDER_STATUS_LABELS[row.status]}»); ` +
      'actualiza la lista y vuelve a seleccionar.',
  );
}

/**
 * The caller's advanced invoices with these ids, in the order asked. All or nothing: an id the company did not
 * issue (or that does not exist) is a 404 naming it, one of its own invoices that is not advanced a 409.
 */
export async function downloadableInvoices(
  db: Db,
  caller: InvoiceCaller,
  ids: readonly number[],
): Promise<DownloadableInvoice[]> {
  const rows = await findIssuedInvoices(
    db,
    caller.companyId,
    ids.filter((id) => id <= MAX_SERIAL_ID),
  );
  const byId = new Map(rows.map((row) => [row.id, row]));
  return ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new InvoiceRequestError(404, invoiceNotFoundNamed(id));
    if (!isAdvancedStatus(row.status)) throw notAdvanced(row);
    return row;
  });
}

function displayDateOrNone(date: IsoDate | null): string {
  return date === null ? NOT_APPLICABLE : displayDate(date);
}

/** What the advance pays: the disbursed amount once PAID, else the MXN value minus the quoted costs. */
function advancePayout(row: DownloadableInvoice): string {
  if (row.disbursed_amount !== null) return moneyText(row.disbursed_amount, 'MXN');
  if (row.cost_financing === null || row.cost_consultancy === null) return PENDING_TEXT;
  const payout = subtractMoney(
    subtractMoney(parseMoney(row.amount_with_exchange_rate), parseMoney(row.cost_financing)),
    parseMoney(row.cost_consultancy),
  );
  return moneyText(formatMoneyAmount(payout), 'MXN');
}

/** The PDF's content for one advanced invoice (spec §9: dates DD/MM/YYYY, money dollar-style with its currency). */
export function invoiceSummary(row: DownloadableInvoice, generatedOn: IsoDate): SummaryDocument {
  const label = invoiceLabel(row);
  const foreign = row.currency !== 'MXN';
  const taxes = subtractMoney(parseMoney(row.amount), parseMoney(row.subtotal));
  const paid = row.status === InvoiceStatus.PAID;
  return {
    title: `Factura ${label}`,
    subtitle: 'Resumen de factura adelantada',
    headerNote: `Generado el ${displayDateOrNone(generatedOn)}`,
    heading: `Factura ${label}`,
    headingNote: `Estado: ${PROVIDER_STATUS_LABELS[row.status]}`,
    sections: [
      {
        title: 'Emisor (proveedor)',
        rows: [
          ['Nombre o razón social', row.emitter_name],
          ['RFC', row.emitter_rfc],
        ],
      },
      {
        title: 'Receptor (cliente)',
        rows: [
          ['Nombre o razón social', row.receiver_name],
          ['RFC', row.receiver_rfc],
        ],
      },
      {
        title: 'Comprobante',
        rows: [
          ['Serie y folio', row.folio === null ? NOT_APPLICABLE : label],
          ['Folio fiscal (UUID)', row.cfdi_uuid],
          ['Fecha de emisión', displayDateOrNone(row.date_of_emission)],
          ['Fecha de pago', displayDateOrNone(row.payment_date)],
          ['Método de pago', row.payment_method ?? NOT_APPLICABLE],
          ['Moneda', row.currency],
          ...(foreign ? ([['Tipo de cambio', row.exchange_rate ?? NOT_APPLICABLE]] as const) : []),
          ['Subtotal', moneyText(row.subtotal, row.currency)],
          ['Impuestos netos', moneyText(formatMoneyAmount(taxes), row.currency)],
          ['Total', moneyText(row.amount, row.currency)],
          ...(foreign
            ? ([['Total en pesos', moneyText(row.amount_with_exchange_rate, 'MXN')]] as const)
            : []),
        ],
        text: row.description === '' ? undefined : `Concepto: ${row.description}`,
      },
      {
        title: 'Adelanto (pronto pago)',
        rows: [
          ['Solicitado el', displayDateOrNone(row.factoring_date)],
          [
            `Tasa anual (${RATE_LABEL})`,
            row.factoring_rate === null ? PENDING_TEXT : `${displayedAnnualRate(row.factoring_rate)} %`,
          ],
          [
            'Costo financiero',
            row.cost_financing === null ? PENDING_TEXT : moneyText(row.cost_financing, 'MXN'),
          ],
          [
            'Costo de asesoría',
            row.cost_consultancy === null ? PENDING_TEXT : moneyText(row.cost_consultancy, 'MXN'),
          ],
          [paid ? 'Monto pagado' : 'Monto a recibir', advancePayout(row)],
          [
            'Pagado el',
            row.disbursed_at === null
              ? paid
                ? NOT_APPLICABLE
                : PENDING_TEXT
              : displayDateOrNone(businessDate(new Date(row.disbursed_at))),
          ],
          ['Referencia del pago', row.disbursement_reference ?? (paid ? NOT_APPLICABLE : PENDING_TEXT)],
        ],
      },
    ],
    footer: PDF_FOOTER,
  };
}

/** Zip entry names: Serie-Folio (or the UUID), safe for any file system, never two alike. */
function entryNames(rows: readonly DownloadableInvoice[]): string[] {
  const used = new Set<string>();
  return rows.map((row) => {
    let name = invoiceLabel(row).replace(UNSAFE_FILE_CHARS, '_');
    if (used.has(name.toLowerCase())) name = `${name}_${row.cfdi_uuid}`;
    used.add(name.toLowerCase());
    return name;
  });
}

/**
 * One ZIP with, per invoice, `<Serie-Folio or UUID>.xml` (the CFDI exactly as imported, UTF-8) and `<same>.pdf`
 * (Flujo's summary). Everything is built before anything is sent: a failure never yields a partial ZIP.
 */
export async function advancedInvoicesZip(
  rows: readonly DownloadableInvoice[],
  now: Date,
): Promise<Uint8Array> {
  const today = businessDate(now);
  const mtime = now;
  const encoder = new TextEncoder();
  const names = entryNames(rows);
  const files: Zippable = {};
  for (const [index, row] of rows.entries()) {
    const name = names[index]!;
    files[`${name}.xml`] = [encoder.encode(row.cfdi_xml), { level: XML_LEVEL, mtime }];
    files[`${name}.pdf`] = [
      await renderSummaryPdf(invoiceSummary(row, today), now),
      { level: PDF_LEVEL, mtime },
    ];
  }
  return zipSync(files);
}
