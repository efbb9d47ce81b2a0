import { sql } from 'kysely';
import { allocateOldestFirst, UNIDENTIFIED_APPROVAL_THRESHOLD } from '../../../src/domain/bank-statement';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { INVOICE_NOT_FOUND } from '../../../src/domain/invoice-label';
import { type Centavos, formatMoneyAmount, formatMxn, parseMoney } from '../../../src/domain/money';
import type { OperatorRole } from '../../../src/domain/operator-roles';
import type {
  ApplyCreditBody,
  ApplyCreditResult,
  BuyerCreditList,
  UnidentifiedPage,
  UnidentifiedPayment,
} from '../../../src/domain/schemas/bank-statement';
import {
  type UnidentifiedEvent,
  type UnidentifiedState,
  unidentifiedTransition,
} from '../../../src/machines/unidentified-payment.machine';
import type { Db } from '../../db/database';
import { FieldErrors } from '../../http/errors';
import { applyPayments, CollectionError, lockBuyers, openInvoicesOf } from './bank-statement.service';

// The unidentified-payment queue and the buyers' saldo a favor (decision 0067). Every change of a queued
// payment goes through its machine (src/machines/unidentified-payment.machine.ts) with the row locked; the
// money goes through applyPayments, the one way a payment reaches the books.

export interface QueueOperator {
  id: number;
  roles: readonly OperatorRole[];
}

export const QUEUE_REFUSALS = {
  notFound: 'Pago no identificado no encontrado.',
  invoiceNotFound: INVOICE_NOT_FOUND,
  nothingOutstanding: 'La factura no tiene un adelanto pagado con saldo por cobrar.',
  approverOnly: 'Solo un aprobador aprueba o rechaza una asignación propuesta.',
  creditAboveBalance: (balance: Centavos) =>
    `El monto excede el saldo a favor del corporativo (${formatMxn(balance)}).`,
  creditAboveOutstanding: (outstanding: Centavos) =>
    `El monto excede lo que falta por cobrar de la factura (${formatMxn(outstanding)}).`,
} as const;

const QUEUE_COLUMNS = sql`u.id, b.clave_rastreo, to_char(b.fecha, 'YYYY-MM-DD') as fecha, b.amount::text as amount,
  b.rfc_ordenante, b.nombre_ordenante, b.referencia, b.concepto, u.state, u.invoice_id, u.proposed_by,
  pu.username as proposed_by_username, du.username as decided_by_username, u.reason`;

interface QueueRow {
  id: number;
  clave_rastreo: string;
  fecha: string;
  amount: string;
  rfc_ordenante: string | null;
  nombre_ordenante: string;
  referencia: string;
  concepto: string;
  state: UnidentifiedState;
  invoice_id: number | null;
  proposed_by: number | null;
  proposed_by_username: string | null;
  decided_by_username: string | null;
  reason: string | null;
}

function toPayment(row: QueueRow): UnidentifiedPayment {
  return {
    ...row,
    amount: formatMoneyAmount(parseMoney(row.amount)),
    needs_approval: parseMoney(row.amount) > UNIDENTIFIED_APPROVAL_THRESHOLD,
  };
}

/** GET operator/collections/unidentified/: the queue, the ones waiting first (pendiente and propuesta). */
export async function listUnidentified(db: Db, state: UnidentifiedState | null): Promise<UnidentifiedPage> {
  const { rows } = await sql<QueueRow>`select ${QUEUE_COLUMNS}
    from unidentified_payments u join bank_payments b on b.id = u.bank_payment_id
    left join users pu on pu.id = u.proposed_by left join users du on du.id = u.decided_by
    where ${state === null ? sql`u.state in ('pendiente', 'propuesta')` : sql`u.state = ${state}`}
    order by b.fecha, u.id limit 500`.execute(db);
  return { count: rows.length, results: rows.map(toPayment) };
}

async function lockQueued(trx: Db, id: number): Promise<QueueRow> {
  const { rows } = await sql<QueueRow>`select ${QUEUE_COLUMNS}
    from unidentified_payments u join bank_payments b on b.id = u.bank_payment_id
    left join users pu on pu.id = u.proposed_by left join users du on du.id = u.decided_by
    where u.id = ${id} for update of u`.execute(trx);
  const row = rows[0];
  if (!row) throw new CollectionError(404, QUEUE_REFUSALS.notFound);
  return row;
}

async function reread(trx: Db, id: number): Promise<UnidentifiedPayment> {
  return toPayment(await lockQueued(trx, id));
}

/** The buyer of an advanced invoice, or the refusal (404 unknown; 409 not advanced). */
async function buyerOfInvoice(trx: Db, invoiceId: number): Promise<number> {
  const invoice = await trx
    .selectFrom('invoices')
    .select(['id', 'receiver_company_id'])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  if (!invoice) throw new CollectionError(404, QUEUE_REFUSALS.invoiceNotFound);
  if (invoice.receiver_company_id === null) throw new CollectionError(409, QUEUE_REFUSALS.nothingOutstanding);
  return invoice.receiver_company_id;
}

/** Locks the invoice's buyer and answers what the invoice still owes (409 when nothing). */
async function lockOutstanding(
  trx: Db,
  invoiceId: number,
): Promise<{ corporateId: number; outstanding: Centavos }> {
  const corporateId = await buyerOfInvoice(trx, invoiceId);
  await lockBuyers(trx, [corporateId]);
  const open = (await openInvoicesOf(trx, [corporateId])).find((invoice) => invoice.id === invoiceId);
  if (!open) throw new CollectionError(409, QUEUE_REFUSALS.nothingOutstanding);
  return { corporateId, outstanding: open.outstanding };
}

function step(state: UnidentifiedState, event: UnidentifiedEvent): UnidentifiedState {
  const next = unidentifiedTransition(state, event);
  if (!next.ok) throw new CollectionError(next.message === 'Indica el motivo.' ? 400 : 409, next.message);
  return next.state;
}

/** The queued payment goes to the invoice: what it owes is collected, the rest is its buyer's saldo a favor. */
async function applyQueued(trx: Db, row: QueueRow, invoiceId: number, actorId: number): Promise<void> {
  const { corporateId, outstanding } = await lockOutstanding(trx, invoiceId);
  const amount = parseMoney(row.amount);
  const { allocations, excess } = allocateOldestFirst(amount, [
    { id: invoiceId, corporateId, dueOn: '', outstanding },
  ]);
  const payment = await trx
    .selectFrom('bank_payments')
    .select('id')
    .where('clave_rastreo', '=', row.clave_rastreo)
    .executeTakeFirstOrThrow();
  await applyPayments(
    trx,
    [
      {
        bankPaymentId: payment.id,
        clave: row.clave_rastreo,
        fecha: row.fecha,
        corporateId,
        allocations,
        excess,
      },
    ],
    actorId,
  );
  await trx
    .updateTable('bank_payments')
    .set({ corporate_id: corporateId })
    .where('id', '=', payment.id)
    .execute();
}

/**
 * POST operator/collections/unidentified/{id}/assign/: up to the threshold the payment is applied at once; above
 * it the assignment is proposed and waits for a different aprobador.
 */
export async function assignUnidentified(
  trx: Db,
  operator: QueueOperator,
  id: number,
  invoiceId: number,
): Promise<UnidentifiedPayment> {
  const row = await lockQueued(trx, id);
  const next = step(row.state, { type: 'payment.assign', amount: parseMoney(row.amount) });
  // Refused before anything is written when the invoice owes nothing.
  await lockOutstanding(trx, invoiceId);
  if (next === 'aplicada') await applyQueued(trx, row, invoiceId, operator.id);
  await trx
    .updateTable('unidentified_payments')
    .set({
      state: next,
      invoice_id: invoiceId,
      proposed_by: operator.id,
      proposed_at: sql<string>`now()`,
      reason: null,
      ...(next === 'aplicada' ? { decided_by: operator.id, decided_at: sql<string>`now()` } : {}),
    })
    .where('id', '=', id)
    .execute();
  return reread(trx, id);
}

/** POST …/approve/: a different aprobador approves the proposal; the payment is applied. */
export async function approveUnidentified(
  trx: Db,
  operator: QueueOperator,
  id: number,
): Promise<UnidentifiedPayment> {
  if (!operator.roles.includes('aprobador')) throw new CollectionError(403, QUEUE_REFUSALS.approverOnly);
  const row = await lockQueued(trx, id);
  const byProposer = row.proposed_by === operator.id;
  const next = unidentifiedTransition(row.state, { type: 'payment.approve', byProposer });
  if (!next.ok) throw new CollectionError(row.state === 'propuesta' && byProposer ? 403 : 409, next.message);
  if (row.invoice_id === null) throw new Error(`proposal ${id} has no invoice`);
  await applyQueued(trx, row, row.invoice_id, operator.id);
  await trx
    .updateTable('unidentified_payments')
    .set({ state: next.state, decided_by: operator.id, decided_at: sql<string>`now()` })
    .where('id', '=', id)
    .execute();
  return reread(trx, id);
}

/** POST …/reject/: an aprobador rejects the proposal with a reason; the payment waits again. */
export async function rejectUnidentified(
  trx: Db,
  operator: QueueOperator,
  id: number,
  reason: string,
): Promise<UnidentifiedPayment> {
  if (!operator.roles.includes('aprobador')) throw new CollectionError(403, QUEUE_REFUSALS.approverOnly);
  const row = await lockQueued(trx, id);
  const next = step(row.state, { type: 'payment.reject', reason });
  await trx
    .updateTable('unidentified_payments')
    .set({
      state: next,
      invoice_id: null,
      proposed_by: null,
      proposed_at: null,
      decided_by: operator.id,
      decided_at: sql<string>`now()`,
      reason,
    })
    .where('id', '=', id)
    .execute();
  return reread(trx, id);
}

/** POST …/return/: the payment is not Flujo's; it is returned to its sender (recorded with the reason). */
export async function returnUnidentified(
  trx: Db,
  operator: QueueOperator,
  id: number,
  reason: string,
): Promise<UnidentifiedPayment> {
  const row = await lockQueued(trx, id);
  const next = step(row.state, { type: 'payment.return', reason });
  await trx
    .updateTable('unidentified_payments')
    .set({ state: next, decided_by: operator.id, decided_at: sql<string>`now()`, reason })
    .where('id', '=', id)
    .execute();
  return reread(trx, id);
}

/** GET operator/collections/credits/: every buyer with a saldo a favor, largest first. */
export async function listCredits(db: Db): Promise<BuyerCreditList> {
  const { rows } = await sql<{
    corporate_id: number;
    corporate_name: string;
    rfc: string | null;
    balance: string;
  }>`
    select c.id as corporate_id, c.name as corporate_name, c.rfc, sum(k.amount)::text as balance
    from buyer_credits k join companies c on c.id = k.corporate_id
    group by c.id, c.name, c.rfc having sum(k.amount) > 0
    order by sum(k.amount) desc, c.id limit 500`.execute(db);
  return {
    count: rows.length,
    results: rows.map((row) => ({ ...row, balance: formatMoneyAmount(parseMoney(row.balance)) })),
  };
}

async function creditBalance(trx: Db, corporateId: number): Promise<Centavos> {
  const row = await trx
    .selectFrom('buyer_credits')
    .select(sql<string>`coalesce(sum(amount), 0)::text`.as('balance'))
    .where('corporate_id', '=', corporateId)
    .executeTakeFirstOrThrow();
  return parseMoney(row.balance);
}

/** POST operator/collections/credits/apply/: part of the invoice's buyer's saldo a favor pays the invoice. */
export async function applyCredit(
  trx: Db,
  operator: QueueOperator,
  body: ApplyCreditBody,
  today: IsoDate,
): Promise<ApplyCreditResult> {
  const { corporateId, outstanding } = await lockOutstanding(trx, body.invoice_id);
  const amount = parseMoney(body.amount);
  const balance = await creditBalance(trx, corporateId);
  if (amount > balance) throw new FieldErrors({ amount: [QUEUE_REFUSALS.creditAboveBalance(balance)] });
  if (amount > outstanding)
    throw new FieldErrors({ amount: [QUEUE_REFUSALS.creditAboveOutstanding(outstanding)] });
  const debit = await trx
    .insertInto('buyer_credits')
    .values({
      corporate_id: corporateId,
      amount: formatMoneyAmount(-amount),
      invoice_id: body.invoice_id,
      recorded_by: operator.id,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  await applyPayments(
    trx,
    [
      {
        bankPaymentId: null,
        // NOTE: 'SAF-' never comes from SPEI or our forms (letters and digits only), so it cannot collide.
        clave: `SAF-${debit.id}`,
        fecha: today,
        corporateId,
        allocations: [{ invoiceId: body.invoice_id, amount }],
        excess: 0,
      },
    ],
    operator.id,
  );
  const left = balance - amount;
  return {
    corporate_id: corporateId,
    invoice_id: body.invoice_id,
    applied: formatMoneyAmount(amount),
    balance: formatMoneyAmount(left),
    message: `Se aplicaron ${formatMxn(amount)} del saldo a favor a la factura; queda ${formatMxn(left)} de saldo a favor.`,
  };
}
