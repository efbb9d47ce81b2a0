import type { IsoDate } from '../../../src/domain/calendar-date';
import { judgeCollection } from '../../../src/domain/collections';
import { INVOICE_NOT_FOUND, invoiceLabel } from '../../../src/domain/invoice-label';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import { formatCurrency, formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import type { CollectionResponse, RecordCollectionBody } from '../../../src/domain/schemas/credit-programmes';
import type { Db } from '../../db/database';
import { businessDate } from '../../http/business-date';
import { FieldErrors } from '../../http/errors';
import type { CallOutcome } from '../idempotency/idempotency.service';
import {
  type CollectionRow,
  findCollectionByClave,
  findInvoiceForCollection,
  insertCollection,
  setCollectionReleased,
} from './collections.repository';
import { type ProgrammeOperator, ProgrammeRequestError } from './credit-programmes.service';
import { releaseCollection } from './programme-ledger.repository';

export const COLLECTION_REFUSALS = {
  invoiceNotFound: INVOICE_NOT_FOUND,
  notPaid: (label: string) =>
    `La factura ${label} no tiene un adelanto pagado: no hay un pago del corporativo que registrar.`,
  claveTaken: (clave: string) =>
    `La clave de rastreo ${clave} ya se registró con otro pago (otra factura o monto).`,
} as const;

function toResponse(row: CollectionRow, label: string): CollectionResponse {
  const released = parseMoney(row.released);
  const overpaid = parseMoney(row.overpaid);
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    amount: formatMoneyAmount(parseMoney(row.amount)),
    released: formatMoneyAmount(released),
    clave_rastreo: row.clave_rastreo,
    fecha: row.fecha,
    overpaid: formatMoneyAmount(overpaid),
    message:
      (released > 0
        ? `Pago registrado: se liberaron ${formatCurrency(released, 'MXN')} MXN del programa por la factura ${label}.`
        : `Pago registrado para la factura ${label}; no quedaba monto usado por liberar.`) +
      (overpaid > 0 ? ` Sobrepago registrado: ${formatCurrency(overpaid, 'MXN')} MXN.` : ''),
  };
}

/**
 * POST operator/collections/: the corporate paid (part of) an advanced invoice; that part leaves the programme's
 * used (at most what the invoice still uses: the ledger decides). A clave de rastreo already recorded for the
 * same invoice and amount answers the first recording and changes nothing; for another payment it is refused.
 * A new payment is dated between the disbursement and today and takes at most what remains to collect, unless
 * the caller says sobrepago (src/domain/collections.ts); otherwise 400 on the field.
 */
export async function recordCollection(
  trx: Db,
  operator: ProgrammeOperator,
  body: RecordCollectionBody,
  today: IsoDate,
): Promise<CallOutcome> {
  const invoice = await findInvoiceForCollection(trx, body.invoice_id);
  if (!invoice) throw new ProgrammeRequestError(404, COLLECTION_REFUSALS.invoiceNotFound);
  const label = invoiceLabel(invoice);
  const amount = formatMoneyAmount(parseMoney(body.amount));
  const replay = (row: CollectionRow): CallOutcome => {
    if (row.invoice_id !== invoice.id || parseMoney(row.amount) !== parseMoney(amount))
      throw new ProgrammeRequestError(409, COLLECTION_REFUSALS.claveTaken(body.clave_rastreo));
    return { statusCode: 200, body: toResponse(row, label) };
  };
  const earlier = await findCollectionByClave(trx, body.clave_rastreo);
  if (earlier) return replay(earlier);
  if (invoice.status !== InvoiceStatus.PAID)
    throw new ProgrammeRequestError(409, COLLECTION_REFUSALS.notPaid(label));
  const verdict = judgeCollection({
    fecha: body.fecha,
    today,
    disbursedOn: invoice.disbursed_at === null ? null : businessDate(new Date(invoice.disbursed_at)),
    amount: parseMoney(amount),
    remaining: parseMoney(invoice.amount_with_exchange_rate) - parseMoney(invoice.collected ?? '0'),
    sobrepago: body.sobrepago,
  });
  if (!verdict.ok) throw new FieldErrors(verdict.errors);
  const inserted = await insertCollection(trx, {
    invoiceId: invoice.id,
    programmeId: invoice.programme_id,
    amount,
    trackingKey: body.clave_rastreo,
    fecha: body.fecha,
    recordedBy: operator.id,
    overpaid: formatMoneyAmount(verdict.overpaid),
  });
  if (!inserted) {
    // A concurrent call recorded this clave first (the unique index made us wait for it): answer as a replay.
    const winner = await findCollectionByClave(trx, body.clave_rastreo);
    if (!winner) throw new Error(`collection ${body.clave_rastreo} conflicted but is not there`);
    return replay(winner);
  }
  const released = await releaseCollection(trx, {
    invoiceId: invoice.id,
    amount,
    reference: body.clave_rastreo,
    actorUserId: operator.id,
  });
  const row = { ...inserted, released: formatMoneyAmount(released) };
  await setCollectionReleased(trx, inserted.id, row.released);
  return { statusCode: 201, body: toResponse(row, label) };
}
