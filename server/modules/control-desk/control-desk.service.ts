import type { IsoDate } from '../../../src/domain/calendar-date';
import { daysBetween } from '../../../src/domain/calendar-date';
import {
  type DeskCheck,
  type DeskFacts,
  type DeskState,
  deskChecks,
  failingReasons,
  satCheck,
} from '../../../src/domain/control-desk';
import { invoiceLabel } from '../../../src/domain/invoice-label';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import { formatCurrency, formatMoneyAmount, parseMoney, sumMoney } from '../../../src/domain/money';
import { effectiveProgrammeState } from '../../../src/domain/programme-lending';
import { isSatStatusCode, SatStatus } from '../../../src/domain/sat-status';
import type { RepStatus } from '../../../src/domain/schemas/payment-complements';
import {
  layoutCsv,
  numericReference,
  parseResultFile,
  type ResultLine,
  SPEI_NAME_MAX,
  SPEI_RFC_UNKNOWN,
  speiConcept,
  speiText,
  trackingKey,
} from '../../../src/domain/spei';
import { cfdiProofLabel, proofAllowsAdvance } from '../../../src/machines/cfdi-proof.machine';
import {
  DESK_STATE_LABELS,
  type DeskItemEvent,
  deskTransition,
} from '../../../src/machines/desk-item.machine';
import type { LifecycleActor } from '../../../src/machines/invoice-lifecycle.machine';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import type { Mailer } from '../../mail/mailer';
// The reservation follows the invoice's status in the lifecycle service (credit-programmes/programme-hook.ts):
// a rejection cancels it and a payment uses it in the same transaction, so the desk never calls the ledger.
import { holdingsOfInvoices } from '../credit-programmes/programme-ledger.repository';
import { efosSituations } from '../efos/efos.repository';
import { concentrationBreaches } from '../exposure/exposure.service';
import { advancePayout, payoutPreview } from '../invoices/advance-payout';
import { insertDisbursement } from '../invoices/disbursement.repository';
import { lockInvoiceForDisbursement } from '../invoices/invoice.repository';
import { exchangeRateText } from '../invoices/invoice-list';
import { companyRecipients, sendToAll } from '../invoices/invoice-notifications';
import { applyInvoiceEvent } from '../invoices/lifecycle.service';
import { repStatuses } from '../invoices/rep-status';
import { type LatestSatCheck, latestSatChecks } from '../sat/sat-checks.repository';
import {
  batchOrders,
  checkFacts,
  confirmOrder,
  type DeskRow,
  findBatch,
  findDeskRow,
  insertBatch,
  insertSpeiOrders,
  listBatches,
  listDeskRows,
  lockBatch,
  lockBatchOrders,
  lockDeskRows,
  type NewSpeiOrder,
  type SpeiOrderRow,
  saveDeskItem,
} from './control-desk.repository';

// The control desk and its SPEI batches (decision 0054): the rules and transactions; SQL is in the repository,
// the checks and the SPEI fields are pure (src/domain/control-desk.ts, src/domain/spei.ts), and every desk
// state change is asked of the desk-item machine; every invoice status change goes through the lifecycle.

/** A refusal of the desk, with its HTTP status and, when there are several, each reason. */
export class DeskError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409,
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

/**
 * Who acts at the desk: an operator (id and username) or the automation (no user; its username names the
 * automation account that ran it, decision 0059).
 */
export interface DeskActor {
  id: number | null;
  username: string;
  /** The name the invoice's lifecycle audit gives the actor, when not its username ('operador Flujo'). */
  auditLabel?: string;
}

const auditActor = (actor: DeskActor) => ({ userId: actor.id, label: actor.auditLabel ?? actor.username });

const OPERATOR_ACTOR: LifecycleActor = { kind: 'operator', companyId: null, satAuthorized: true };

export const DESK_MESSAGES = {
  notOnDesk: (id: number) => `No hay ningún adelanto de la factura ${id} en la mesa de control.`,
  checksFail: 'No se puede aprobar: hay verificaciones que no pasan.',
  reasonRequired: 'Indica el motivo del rechazo.',
  batchEmpty: 'Selecciona al menos un adelanto aprobado.',
  batchNotApproved: 'Solo los adelantos aprobados entran a un lote.',
  batchNotVigente:
    'Solo entran a un lote los CFDI que el SAT confirma vigentes justo antes; no se creó el lote.',
  notVigente: (label: string, reason: string) => `Factura ${label}: ${reason}`,
  proofState: 'La prueba del CFDI está',
  batchNotFound: 'Lote no encontrado.',
  sameTreasurer:
    'Quien creó el lote no puede confirmar su resultado: pide a otra persona de tesorería o a un aprobador que cargue el archivo del banco.',
  badFile: 'El archivo de resultados tiene errores; no se aplicó ninguna línea.',
} as const;

export interface DeskItemView {
  invoice_id: number;
  label: string;
  cfdi_uuid: string;
  provider: { name: string; rfc: string; clabe: string | null };
  corporate: { name: string; rfc: string };
  amount: string;
  /** The invoice's own amount when it is in dollars (as the invoice lists send it), null otherwise. */
  amount_with_exchange_rate_usd: string | null;
  /** The CFDI TipoCambio `amount` was converted at ('-' for a peso invoice), as the invoice lists send it. */
  exchange_rate: string;
  /**
   * What the provider receives (MXN): the amount less the advance's costs, as the SPEI order will carry it if
   * batched today; null when the advance has no quote and no alliance to quote it with (issue 33).
   */
  payout: string | null;
  payment_date: string | null;
  state: DeskState;
  state_label: string;
  reason: string | null;
  decided_by: string | null;
  forced_checks: string[];
  checks: DeskCheck[];
  checks_pass: boolean;
  /** Issue 34 (decision 0070): 'REP recibido' or 'REP pendiente' once collected; null before. */
  payment_complement: RepStatus | null;
}

/** The facts the checks read: the parties' rows and, from the programme's ledger, what the invoice holds. */
async function factsOf(db: Db, deskRows: readonly DeskRow[]) {
  const invoiceIds = deskRows.map((row) => row.invoice_id);
  const rows = await checkFacts(db, invoiceIds);
  const holdings = await holdingsOfInvoices(db, invoiceIds);
  const reserved = new Map(invoiceIds.map((id) => [id, holdings.get(id)?.reserved ?? 0]));
  const satAnswers = await latestSatChecks(db, invoiceIds);
  const efos = await efosSituations(db, [...new Set(deskRows.map((row) => row.emitter_rfc))]);
  // The caps an advance still in process would exceed if approved: its reservation already counts in its
  // buyer's, group's and supplier's exposure; one without a reservation adds its amount (decision 0069).
  const concentration = await concentrationBreaches(
    db,
    deskRows
      .filter((row) => row.status === InvoiceStatus.PROCESS)
      .map((row) => ({
        invoiceId: row.invoice_id,
        buyerId: row.receiver_company_id,
        supplierId: row.emitter_company_id,
        unreserved: (reserved.get(row.invoice_id) ?? 0) > 0 ? 0 : parseMoney(row.amount_with_exchange_rate),
      })),
  );
  return { rows, reserved, satAnswers, efos, concentration };
}

type Facts = Awaited<ReturnType<typeof factsOf>>;

function checksOf(row: DeskRow, all: Facts, today: IsoDate): DeskCheck[] {
  const facts = all.rows.get(row.invoice_id);
  const satStatus = facts && isSatStatusCode(facts.sat_status) ? facts.sat_status : SatStatus.DONT_SENT;
  return deskChecks({
    satStatus,
    satCancelledAt: row.sat_cancelled_at,
    proofState: row.proof_state,
    satAnswer: satAnswerOf(all.satAnswers.get(row.invoice_id)),
    efos: { situation: all.efos.byRfc.get(row.emitter_rfc) ?? null, listImportedAt: all.efos.listImportedAt },
    alliance:
      facts?.alliance_active == null
        ? null
        : {
            isActive: facts.alliance_active,
            maxAmount: facts.alliance_max_amount === null ? null : parseMoney(facts.alliance_max_amount),
            maxDays: facts.alliance_max_days,
          },
    programme:
      facts?.programme_state == null
        ? null
        : {
            state: effectiveProgrammeState(
              { state: facts.programme_state, endsOn: facts.programme_ends_on },
              today,
            ),
            reservedForInvoice: all.reserved.get(row.invoice_id) ?? 0,
            frozenFor: facts.programme_frozen_for,
          },
    clabe: facts?.disbursement_clabe?.trim() || null,
    duplicate: facts?.already_paid ? 'already_paid' : facts?.same_uuid_elsewhere ? 'other_invoice' : 'none',
    amount: parseMoney(row.amount_with_exchange_rate),
    daysToPayment: row.payment_date === null ? null : daysBetween(today, row.payment_date),
    concentration: all.concentration.get(row.invoice_id) ?? [],
  });
}

function satAnswerOf(check: LatestSatCheck | undefined): DeskFacts['satAnswer'] {
  if (!check) return null;
  return { askedAt: new Date(check.asked_at).toISOString(), answered: check.answered, estado: check.estado };
}

function itemView(
  row: DeskRow,
  checks: DeskCheck[],
  all: Facts,
  payout: string | null,
  rep: RepStatus | null,
): DeskItemView {
  return {
    invoice_id: row.invoice_id,
    label: invoiceLabel(row),
    cfdi_uuid: row.cfdi_uuid,
    // The deposit CLABE the SPEI order will carry, shown where tesorería picks what to batch.
    provider: {
      name: row.emitter_name,
      rfc: row.emitter_rfc,
      clabe: all.rows.get(row.invoice_id)?.disbursement_clabe?.trim() || null,
    },
    corporate: { name: row.receiver_name, rfc: row.receiver_rfc },
    amount: row.amount_with_exchange_rate,
    amount_with_exchange_rate_usd: row.currency === 'USD' ? row.amount : null,
    exchange_rate: exchangeRateText(row.exchange_rate),
    payout,
    payment_date: row.payment_date,
    state: row.desk_state,
    state_label: DESK_STATE_LABELS[row.desk_state],
    reason: row.reason,
    decided_by: row.decided_by_username,
    forced_checks: row.forced_checks ?? [],
    checks,
    checks_pass: checks.every((item) => item.ok),
    payment_complement: rep,
  };
}

/** What the provider receives for the advance, as its SPEI order would carry it if batched today. */
function payoutOf(db: Db, row: DeskRow, today: IsoDate): Promise<string | null> {
  return payoutPreview(db, { ...row, id: row.invoice_id }, today);
}

async function viewsOf(db: Db, rows: readonly DeskRow[], today: IsoDate): Promise<DeskItemView[]> {
  const facts = await factsOf(db, rows);
  const reps = await repStatuses(
    db,
    rows.map((row) => row.invoice_id),
  );
  const views: DeskItemView[] = [];
  // One after another: `db` may be a transaction's single connection.
  for (const row of rows) {
    const rep = reps.get(row.invoice_id) ?? null;
    views.push(itemView(row, checksOf(row, facts, today), facts, await payoutOf(db, row, today), rep));
  }
  return views;
}

export async function listDesk(
  db: Db,
  query: { state: DeskState | null; page: number; pageSize: number },
  today: IsoDate,
): Promise<{ count: number; results: DeskItemView[] }> {
  const { count, rows } = await listDeskRows(db, query);
  return { count, results: await viewsOf(db, rows, today) };
}

export async function getDeskItem(db: Db, invoiceId: number, today: IsoDate): Promise<DeskItemView> {
  const row = await findDeskRow(db, invoiceId);
  if (!row) throw new DeskError(404, DESK_MESSAGES.notOnDesk(invoiceId));
  const [view] = await viewsOf(db, [row], today);
  return view as DeskItemView;
}

/** The machine's next desk state, or its refusal as a DeskError (409; the failing checks as details). */
function nextDeskState(row: DeskRow, event: DeskItemEvent, details: readonly string[] = []): DeskState {
  const next = deskTransition(row.desk_state, event);
  if (!next.ok) throw new DeskError(409, next.message, details);
  return next.state;
}

/**
 * An aprobador (or the automation, with `force`) approves an advance on the desk. Refused (409, with the
 * failing checks' reasons) while a check fails; with `force` the failing checks are recorded on the item.
 */
export async function approveDeskItem(
  db: Db,
  invoiceId: number,
  actor: DeskActor,
  options: { today: IsoDate; force?: boolean },
): Promise<DeskItemView> {
  return inTransaction(db, async (trx) => {
    const row = await findDeskRow(trx, invoiceId, { lock: true });
    if (!row || row.status !== InvoiceStatus.PROCESS)
      throw new DeskError(404, DESK_MESSAGES.notOnDesk(invoiceId));
    const facts = await factsOf(trx, [row]);
    const checks = checksOf(row, facts, options.today);
    const failing = checks.filter((item) => !item.ok);
    nextDeskState(
      row,
      { type: 'desk.approve', failingChecks: failing.length, force: options.force === true },
      failingReasons(checks),
    );
    const forced = failing.map((item) => item.id);
    await saveDeskItem(trx, {
      invoiceId,
      state: 'approved',
      reason: null,
      decidedBy: actor,
      forcedChecks: forced.length > 0 ? forced : null,
    });
    const saved = (await findDeskRow(trx, invoiceId)) as DeskRow;
    // Approved just now: nothing was collected on it, so it owes no REP yet.
    return itemView(saved, checks, facts, await payoutOf(trx, saved, options.today), null);
  });
}

/**
 * An aprobador rejects an advance: the invoice goes back to Autorizada through the lifecycle
 * (invoice.deskReject, the reason in its audit row), its programme reservation is cancelled, all in one
 * transaction; then the provider is e-mailed why.
 */
export async function rejectDeskItem(
  db: Db,
  invoiceId: number,
  actor: DeskActor,
  options: { reason: string; today: IsoDate; mailer?: Mailer },
): Promise<DeskItemView> {
  const reason = options.reason.trim();
  const { view, recipients, label } = await inTransaction(db, async (trx) => {
    const row = await findDeskRow(trx, invoiceId, { lock: true });
    if (!row || row.status !== InvoiceStatus.PROCESS)
      throw new DeskError(404, DESK_MESSAGES.notOnDesk(invoiceId));
    nextDeskState(row, { type: 'desk.reject', reason });
    await applyInvoiceEvent(
      trx,
      invoiceId,
      { type: 'invoice.deskReject', actor: OPERATOR_ACTOR, reason },
      auditActor(actor),
    );
    await saveDeskItem(trx, { invoiceId, state: 'rejected', reason, decidedBy: actor, forcedChecks: null });
    const saved = (await findDeskRow(trx, invoiceId)) as DeskRow;
    const [rejected] = await viewsOf(trx, [saved], options.today);
    return {
      view: rejected as DeskItemView,
      recipients: await companyRecipients(trx, row.emitter_company_id),
      label: invoiceLabel(row),
    };
  });
  if (options.mailer) {
    await sendToAll(options.mailer, recipients, {
      subject: `No pudimos adelantar tu factura ${label}`,
      text:
        `La mesa de control de Flujo rechazó el adelanto de tu factura ${label}. Motivo: ${reason}\n` +
        'La factura vuelve a estar Autorizada: puedes corregir lo indicado y solicitar el adelanto de nuevo.',
    });
  }
  return view;
}

// --- SPEI batches ---

export interface SpeiOrderView {
  id: number;
  invoice_id: number;
  clave_rastreo: string;
  referencia_numerica: number;
  beneficiary_name: string;
  beneficiary_clabe: string | null;
  beneficiary_rfc: string;
  amount: string;
  concepto: string;
  state: 'pendiente' | 'liquidada' | 'devuelta';
  return_reason: string | null;
  confirmed_by: string | null;
}

export interface BatchView {
  id: number;
  created_by: string;
  created_at: string;
  total: string;
  orders: SpeiOrderView[];
}

function orderView(order: SpeiOrderRow): SpeiOrderView {
  return {
    id: order.id,
    invoice_id: order.invoice_id,
    clave_rastreo: order.clave_rastreo,
    referencia_numerica: order.referencia_numerica,
    beneficiary_name: order.beneficiary_name,
    beneficiary_clabe: order.beneficiary_clabe,
    beneficiary_rfc: order.beneficiary_rfc,
    amount: order.amount,
    concepto: order.concepto,
    state: order.state,
    return_reason: order.return_reason,
    confirmed_by: order.confirmed_by_username,
  };
}

export async function getBatch(db: Db, batchId: number): Promise<BatchView> {
  const batch = await findBatch(db, batchId);
  if (!batch) throw new DeskError(404, DESK_MESSAGES.batchNotFound);
  const orders = await batchOrders(db, batchId);
  return {
    id: batch.id,
    created_by: batch.created_by_username,
    created_at: batch.created_at,
    total: formatMoneyAmount(sumMoney(orders.map((order) => parseMoney(order.amount)))),
    orders: orders.map(orderView),
  };
}

export async function listBatchPage(db: Db, query: { page: number; pageSize: number }) {
  const { count, rows } = await listBatches(db, query);
  return {
    count,
    results: rows.map((row) => ({
      id: row.id,
      created_by: row.created_by_username,
      created_at: row.created_at,
      orders: Number(row.orders),
      total: row.total,
      pending: Number(row.pending),
      settled: Number(row.settled),
      returned: Number(row.returned),
    })),
  };
}

/** The bank layout of a batch (src/domain/spei.ts's columns). */
export async function batchLayout(db: Db, batchId: number): Promise<string> {
  const batch = await getBatch(db, batchId);
  return layoutCsv(batch.orders);
}

/**
 * Tesorería batches approved advances: one SPEI order per advance (generated clave de rastreo and referencia,
 * the provider's name, CLABE and RFC, the amount it receives, concepto), every item in_batch; all or nothing.
 * `claves` overrides the generated clave per invoice (the automation's --reference).
 */
export async function createBatch(
  db: Db,
  invoiceIds: readonly number[],
  actor: DeskActor,
  options: { today: IsoDate; claves?: ReadonlyMap<number, string> },
): Promise<BatchView> {
  const ids = [...new Set(invoiceIds)].sort((a, b) => a - b);
  if (ids.length === 0) throw new DeskError(400, DESK_MESSAGES.batchEmpty);
  const batchId = await inTransaction(db, async (trx) => {
    const rows = new Map((await lockDeskRows(trx, ids)).map((row) => [row.invoice_id, row]));
    const problems: string[] = [];
    for (const id of ids) {
      const row = rows.get(id);
      if (!row) problems.push(DESK_MESSAGES.notOnDesk(id));
      else {
        const next = deskTransition(row.desk_state, { type: 'desk.batch' });
        if (!next.ok) problems.push(`Factura ${invoiceLabel(row)}: ${next.message}`);
      }
    }
    if (problems.length > 0) {
      throw new DeskError(rows.size < ids.length ? 404 : 409, DESK_MESSAGES.batchNotApproved, problems);
    }
    // Money leaves only for a CFDI SAT vouched for just now (the caller asked: recheckAtSat), never on silence.
    const answers = await latestSatChecks(trx, ids);
    const unvouched = ids.flatMap((id) => {
      const row = rows.get(id) as DeskRow;
      const answer = answers.get(id);
      if (proofAllowsAdvance(row.proof_state) && answer?.answered && answer.estado === 'Vigente') return [];
      const sat = satCheck({ satCancelledAt: row.sat_cancelled_at, satAnswer: satAnswerOf(answer) });
      const reason = sat.ok ? `${DESK_MESSAGES.proofState} ${cfdiProofLabel(row.proof_state)}.` : sat.reason;
      return [DESK_MESSAGES.notVigente(invoiceLabel(row), reason)];
    });
    if (unvouched.length > 0) throw new DeskError(409, DESK_MESSAGES.batchNotVigente, unvouched);
    const facts = await checkFacts(trx, ids);
    const id = await insertBatch(trx, actor);
    const orders: NewSpeiOrder[] = [];
    for (const invoiceId of ids) {
      const invoice = await lockInvoiceForDisbursement(trx, { id: invoiceId });
      if (!invoice) throw new DeskError(404, DESK_MESSAGES.notOnDesk(invoiceId));
      const party = facts.get(invoiceId);
      orders.push({
        invoiceId,
        trackingKey: options.claves?.get(invoiceId) ?? trackingKey(id, invoiceId),
        numericReference: numericReference(invoiceId),
        beneficiaryName: speiText(party?.provider_name ?? invoice.emitter_name, SPEI_NAME_MAX) || 'PROVEEDOR',
        beneficiaryClabe: party?.disbursement_clabe?.trim() || null,
        beneficiaryRfc: party?.provider_rfc ?? SPEI_RFC_UNKNOWN,
        amount: await advancePayout(trx, invoice, options.today),
        concepto: speiConcept(invoiceLabel(invoice)),
      });
    }
    await insertSpeiOrders(trx, id, orders);
    for (const invoiceId of ids) await saveDeskItem(trx, { invoiceId, state: 'in_batch' });
    return id;
  });
  return getBatch(db, batchId);
}

export interface ConfirmationLine {
  line: number;
  clave_rastreo: string;
  estado: 'liquidada' | 'devuelta';
  applied: boolean;
  message: string;
}

export interface ConfirmationResult {
  batch_id: number;
  applied: number;
  unchanged: number;
  results: ConfirmationLine[];
}

/**
 * The bank's result file for a batch. Every line is checked first (format, clave of this batch); any error
 * refuses the whole file (400, one Spanish message per line) and changes nothing. Then, under the batch's
 * lock: liquidada → the invoice goes Pagada (invoice.disburse), the disbursement is recorded, the reservation
 * becomes used and the provider is e-mailed; devuelta → the item is back on the desk with the bank's reason
 * and the reservation is kept. A clave confirms once: a line for an order already confirmed changes nothing.
 * The paid providers' notices are returned for the caller to send after commit (sendPaidNotices).
 */
export async function confirmBatch(
  db: Db,
  batchId: number,
  fileText: string,
  actor: DeskActor,
): Promise<Settlement> {
  const parsed = parseResultFile(fileText);
  if (!parsed.ok) throw new DeskError(400, DESK_MESSAGES.badFile, parsed.errors);
  return settleBatch(db, batchId, parsed.lines, actor);
}

/** A provider to tell its advance was paid, once the transaction committed. */
export interface PaidNotice {
  label: string;
  amount: string;
  clave: string;
  recipients: string[];
}

export interface Settlement {
  result: ConfirmationResult;
  notices: PaidNotice[];
}

/** E-mails each paid provider (after commit: the mailer writes on its own connection). */
export async function sendPaidNotices(mailer: Mailer, notices: readonly PaidNotice[]): Promise<void> {
  for (const notice of notices) await sendToAll(mailer, notice.recipients, paidMessage(notice));
}

/** What a result line says about one order (parsed from the bank's file, or the automation's own). */
export type SettlementLine = Pick<ResultLine, 'line' | 'trackingKey' | 'estado' | 'motivo'>;

/** confirmBatch after the parse: the one path that settles or returns SPEI orders (ops disburse uses it too). */
export async function settleBatch(
  db: Db,
  batchId: number,
  lines: readonly SettlementLine[],
  actor: DeskActor,
): Promise<Settlement> {
  return inTransaction(db, async (trx) => {
    // The batch row is locked first: its creator is compared and its orders settled in this one transaction.
    const batch = await lockBatch(trx, batchId);
    if (!batch) throw new DeskError(404, DESK_MESSAGES.batchNotFound);
    // Two people (decision 0059): who made the batch does not confirm what the bank did with it. The automation
    // (no user) acts alone by its standing instruction, recorded by account name.
    if (actor.id !== null && actor.id === batch.created_by) {
      throw new DeskError(403, DESK_MESSAGES.sameTreasurer);
    }
    const orders = new Map(
      (await lockBatchOrders(trx, batchId)).map((order) => [order.clave_rastreo, order]),
    );
    const unknown = lines
      .filter((line) => !orders.has(line.trackingKey))
      .map(
        (line) =>
          `Línea ${line.line}: la clave de rastreo ${line.trackingKey} no pertenece al lote ${batchId}.`,
      );
    if (unknown.length > 0) throw new DeskError(400, DESK_MESSAGES.badFile, unknown);
    const results: ConfirmationLine[] = [];
    const paid: { invoiceId: number; amount: string; clave: string }[] = [];
    for (const line of lines) {
      const order = orders.get(line.trackingKey) as SpeiOrderRow;
      const base = { line: line.line, clave_rastreo: line.trackingKey, estado: line.estado };
      if (order.state !== 'pendiente') {
        results.push({
          ...base,
          applied: false,
          message: `La orden ${order.clave_rastreo} ya estaba confirmada como ${order.state}; sin cambios.`,
        });
        continue;
      }
      const row = (await findDeskRow(trx, order.invoice_id, { lock: true })) as DeskRow;
      if (line.estado === 'liquidada') {
        nextDeskState(row, { type: 'bank.settle' });
        await applyInvoiceEvent(
          trx,
          order.invoice_id,
          { type: 'invoice.disburse', actor: OPERATOR_ACTOR },
          auditActor(actor),
        );
        await insertDisbursement(trx, {
          invoiceId: order.invoice_id,
          amount: order.amount,
          reference: order.clave_rastreo,
        });
        await saveDeskItem(trx, { invoiceId: order.invoice_id, state: 'paid' });
        await confirmOrder(trx, order.id, { state: 'liquidada', reason: null, by: actor });
        paid.push({ invoiceId: order.invoice_id, amount: order.amount, clave: order.clave_rastreo });
        results.push({ ...base, applied: true, message: `Factura ${invoiceLabel(row)} pagada.` });
      } else {
        const reason = line.motivo ?? '';
        nextDeskState(row, { type: 'bank.return', reason });
        await saveDeskItem(trx, { invoiceId: order.invoice_id, state: 'returned', reason });
        await confirmOrder(trx, order.id, { state: 'devuelta', reason, by: actor });
        results.push({
          ...base,
          applied: true,
          message: `Factura ${invoiceLabel(row)} devuelta: regresa a la mesa de control.`,
        });
      }
    }
    const notices: PaidNotice[] = [];
    for (const item of paid) {
      const row = (await findDeskRow(trx, item.invoiceId)) as DeskRow;
      notices.push({
        ...item,
        label: invoiceLabel(row),
        recipients: await companyRecipients(trx, row.emitter_company_id),
      });
    }
    const applied = results.filter((line) => line.applied).length;
    return {
      result: { batch_id: batchId, applied, unchanged: results.length - applied, results },
      notices,
    };
  });
}

/** The provider's notice that its advance was paid. */
export function paidMessage(paid: { label: string; amount: string; clave: string }) {
  return {
    subject: `Pagamos el adelanto de tu factura ${paid.label}`,
    text: `Depositamos ${formatCurrency(parseMoney(paid.amount), 'MXN')} MXN por el adelanto de tu factura ${paid.label} (referencia ${paid.clave}).`,
  };
}
