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
import { applyPayments, lockBuyers } from './bank-statement.service';
import {
  type CollectionRow,
  findCollectionByClave,
  findInvoiceForCollection,
} from './collections.repository';
import { type ProgrammeOperator, ProgrammeRequestError } from './credit-programmes.service';

export const COLLECTION_REFUSALS = {
  invoiceNotFound: INVOICE_NOT_FOUND,
  notPaid: (label: string) =>
    `La factura ${label} no tiene un adelanto pagado: no hay un pago del corporativo que registrar.`,
  claveTaken: (clave: string) =>
    `La clave de rastreo ${clave} ya se registró con otro pago (otra factura o monto).`,
  nothingLeft: (label: string) => `La factura ${label} ya no tiene nada por cobrar: el pago no se registró.`,
} as const;

function toResponse(row: CollectionRow, label: string): CollectionResponse {
  const released = parseMoney(row.released);
  const overpaid = parseMoney(row.overpaid);
  return {
    id: row.id,
    invoice_id: row.invoice_id,
    amount: formatMoneyAmount(parseMoney(row.amount) + overpaid),
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
  const invoice = await findInvoiceForCollection(trx, body.invoice_id, { lock: false });
  if (!invoice) throw new ProgrammeRequestError(404, COLLECTION_REFUSALS.invoiceNotFound);
  const label = invoiceLabel(invoice);
  const amount = formatMoneyAmount(parseMoney(body.amount));
  const replay = (row: CollectionRow): CallOutcome => {
    if (
      row.invoice_id !== invoice.id ||
      parseMoney(row.amount) + parseMoney(row.overpaid) !== parseMoney(amount)
    )
      throw new ProgrammeRequestError(409, COLLECTION_REFUSALS.claveTaken(body.clave_rastreo));
    return { statusCode: 200, body: toResponse(row, label) };
  };
  const earlier = await findCollectionByClave(trx, body.clave_rastreo);
  if (earlier) return replay(earlier);
  if (invoice.status !== InvoiceStatus.PAID)
    throw new ProgrammeRequestError(409, COLLECTION_REFUSALS.notPaid(label));
  // The clave is claimed among every incoming SPEI (the bank's statement too): one payment, one clave.
  const claimed = await trx
    .insertInto('bank_payments')
    .values({
      clave_rastreo: body.clave_rastreo,
      fecha: body.fecha,
      amount,
      corporate_id: invoice.corporate_id,
      source: 'manual',
      recorded_by: operator.id,
    })
    .onConflict((oc) => oc.column('clave_rastreo').doNothing())
    .returning('id')
    .executeTakeFirst();
  if (!claimed) {
    // A concurrent call recorded this clave first (the unique index made us wait for it), or the bank's
    // statement holds it: a replay of the same payment, or a refusal.
    const winner = await findCollectionByClave(trx, body.clave_rastreo);
    if (!winner) throw new ProgrammeRequestError(409, COLLECTION_REFUSALS.claveTaken(body.clave_rastreo));
    return replay(winner);
  }
  // The same rules as the bank's statement (decision 0067): the buyer's payments queue (its lock before the
  // invoice's), what is owed is collected and the programme's part released, the excess is saldo a favor.
  if (invoice.corporate_id !== null) await lockBuyers(trx, [invoice.corporate_id]);
  const locked = (await findInvoiceForCollection(trx, body.invoice_id, { lock: true })) ?? invoice;
  const verdict = judgeCollection({
    fecha: body.fecha,
    today,
    disbursedOn: locked.disbursed_at === null ? null : businessDate(new Date(locked.disbursed_at)),
    amount: parseMoney(amount),
    remaining: parseMoney(locked.amount_with_exchange_rate) - parseMoney(locked.collected ?? '0'),
    sobrepago: body.sobrepago,
  });
  if (!verdict.ok) throw new FieldErrors(verdict.errors);
  const overpaid = verdict.overpaid;
  const applied = parseMoney(amount) - overpaid;
  if (applied <= 0) throw new ProgrammeRequestError(409, COLLECTION_REFUSALS.nothingLeft(label));
  await trx
    .updateTable('bank_payments')
    .set({ kind: overpaid > 0 ? 'sobrepago' : 'exacta' })
    .where('id', '=', claimed.id)
    .execute();
  const { firstCollectionIds } = await applyPayments(
    trx,
    [
      {
        bankPaymentId: claimed.id,
        clave: body.clave_rastreo,
        fecha: body.fecha,
        corporateId: invoice.corporate_id ?? 0,
        allocations: [{ invoiceId: invoice.id, amount: applied }],
        excess: invoice.corporate_id === null ? 0 : overpaid,
        overpaid,
      },
    ],
    operator.id,
  );
  const row = await findCollectionByClave(trx, body.clave_rastreo);
  if (!row || firstCollectionIds[0] !== row.id)
    throw new Error(`collection ${body.clave_rastreo} not recorded`);
  return { statusCode: 201, body: toResponse(row, label) };
}
