import { sql } from 'kysely';
import {
  type Allocation,
  type BankStatementLine,
  matchPayments,
  type OpenInvoice,
  type PaymentKind,
  parseBankStatement,
  paymentResultMessage,
} from '../../../src/domain/bank-statement';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { InvoiceStatus } from '../../../src/domain/invoice-status';
import { batchOfReference } from '../../../src/domain/maturities';
import { type Centavos, formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import type {
  BankStatementCounts,
  BankStatementLineResult,
  BankStatementResult,
} from '../../../src/domain/schemas/bank-statement';
import type { Db } from '../../db/database';
import { releaseCollections } from './programme-ledger.repository';

// Collections reconciled from the bank's statement (issue 34, decision 0067). One transaction per file: the
// claves are claimed first (bank_payments' unique index: a clave is applied once, and a concurrent file with the
// same clave waits for this one and then finds it taken), then the buyers involved are locked (an advisory lock
// per buyer, in id order, so payments of one buyer from two files or 'Registrar cobro' queue), then what is
// outstanding is read once for all of them and matchPayments decides each line; the writes go in bulk.

/** A refusal of the whole file or of one call: 400 with one message per line, 404, 409. */
export class CollectionError extends Error {
  constructor(
    readonly statusCode: 400 | 403 | 404 | 409,
    message: string,
    readonly details: readonly string[] = [],
  ) {
    super(message);
  }
}

export const BANK_STATEMENT_REFUSALS = {
  badFile: 'El archivo tiene errores; no se aplicó ningún pago. Corrígelo y cárgalo completo de nuevo.',
} as const;

const CHUNK = 2_000;

function chunks<T>(rows: readonly T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let start = 0; start < rows.length; start += size) out.push(rows.slice(start, start + size));
  return out;
}

/** Serialises every payment of these buyers until the transaction ends (advisory locks, taken in id order). */
export async function lockBuyers(trx: Db, corporateIds: Iterable<number>): Promise<void> {
  const ids = [...new Set(corporateIds)].sort((a, b) => a - b);
  for (const part of chunks(ids))
    await sql`select pg_advisory_xact_lock(34, s.c) from (select c from unnest(array[${sql.join(
      part,
    )}]::int[]) as c order by c) as s`.execute(trx);
}

/** Every advanced invoice of these buyers with something outstanding (MXN value less what was collected). */
export async function openInvoicesOf(trx: Db, corporateIds: readonly number[]): Promise<OpenInvoice[]> {
  const out: OpenInvoice[] = [];
  for (const part of chunks([...new Set(corporateIds)])) {
    const { rows } = await sql<{ id: number; corporate_id: number; due_on: string; outstanding: string }>`
      select i.id, i.receiver_company_id as corporate_id, to_char(d.due_on, 'YYYY-MM-DD') as due_on,
        (i.amount_with_exchange_rate - coalesce(c.total, 0))::text as outstanding
      from invoices i
      join lateral (select due_on from disbursements where invoice_id = i.id order by at desc, id desc limit 1) d
        on true
      left join lateral (select sum(amount) as total from collections where invoice_id = i.id) c on true
      where i.receiver_company_id in (${sql.join(part)}) and i.status = ${InvoiceStatus.PAID}
        and i.amount_with_exchange_rate - coalesce(c.total, 0) > 0`.execute(trx);
    for (const row of rows)
      out.push({
        id: row.id,
        corporateId: row.corporate_id,
        dueOn: row.due_on,
        outstanding: parseMoney(row.outstanding),
      });
  }
  return out;
}

/** A payment to apply: where its money goes (collections on invoices) and what is left as saldo a favor. */
export interface PaymentToApply {
  bankPaymentId: number | null;
  clave: string;
  fecha: IsoDate;
  corporateId: number;
  allocations: readonly Allocation[];
  excess: Centavos;
  /** Recorded on the first collection (the manual over-payment's column). */
  overpaid?: Centavos;
}

/**
 * The one way a payment reaches the books (the bank's file, the unidentified queue, the saldo a favor and
 * 'Registrar cobro'): a collection per invoice it pays (the first named by the payment's clave, the others
 * `clave-2`, `clave-3`…: a clave that SPEI and our forms never produce), the programme's part released by the
 * ledger, and the excess kept as the buyer's saldo a favor. The caller holds the buyers' locks.
 * Returns the id of each payment's first collection (null when it paid no invoice) and what it released.
 */
export async function applyPayments(
  trx: Db,
  payments: readonly PaymentToApply[],
  actorUserId: number,
): Promise<{ firstCollectionIds: (number | null)[]; released: Centavos[] }> {
  const items = payments.flatMap((payment, index) =>
    payment.allocations.map((allocation, position) => ({
      paymentIndex: index,
      invoiceId: allocation.invoiceId,
      amount: allocation.amount,
      reference: position === 0 ? payment.clave : `${payment.clave}-${position + 1}`,
      overpaid: position === 0 ? (payment.overpaid ?? 0) : 0,
    })),
  );
  const { released, programmeOf } = await releaseCollections(trx, items, actorUserId);
  const firstCollectionIds: (number | null)[] = payments.map(() => null);
  const releasedByPayment = payments.map(() => 0);
  const rows = items.map((item, index) => {
    releasedByPayment[item.paymentIndex] =
      (releasedByPayment[item.paymentIndex] ?? 0) + (released[index] ?? 0);
    return {
      invoice_id: item.invoiceId,
      programme_id: programmeOf.get(item.invoiceId) ?? null,
      amount: formatMoneyAmount(item.amount),
      released: formatMoneyAmount(released[index] ?? 0),
      clave_rastreo: item.reference,
      fecha: payments[item.paymentIndex]?.fecha ?? '',
      recorded_by: actorUserId,
      overpaid: formatMoneyAmount(item.overpaid),
    };
  });
  const idByClave = new Map<string, number>();
  for (const part of chunks(rows)) {
    const inserted = await trx
      .insertInto('collections')
      .values(part)
      .returning(['id', 'clave_rastreo'])
      .execute();
    for (const row of inserted) idByClave.set(row.clave_rastreo, row.id);
  }
  payments.forEach((payment, index) => {
    if (payment.allocations.length > 0) firstCollectionIds[index] = idByClave.get(payment.clave) ?? null;
  });
  const credits = payments
    .filter((payment) => payment.excess > 0)
    .map((payment) => ({
      corporate_id: payment.corporateId,
      amount: formatMoneyAmount(payment.excess),
      bank_payment_id: payment.bankPaymentId,
      invoice_id: null,
      recorded_by: actorUserId,
    }));
  for (const part of chunks(credits)) await trx.insertInto('buyer_credits').values(part).execute();
  return { firstCollectionIds, released: releasedByPayment };
}

const COUNT_KEYS: Record<PaymentKind, keyof BankStatementCounts> = {
  exacta: 'exactas',
  parcial: 'parciales',
  sobrepago: 'sobrepagos',
  no_identificada: 'no_identificadas',
  repetida: 'repetidas',
};

/** The answer's summary, in Spanish. */
function summary(counts: BankStatementCounts): string {
  const applied = counts.exactas + counts.parciales + counts.sobrepagos;
  if (applied + counts.no_identificadas === 0)
    return `Todas las claves de rastreo (${counts.repetidas}) ya se habían aplicado: el archivo no cambió nada.`;
  return (
    `Se aplicaron ${applied} pagos (${counts.exactas} exactos, ${counts.parciales} parciales, ${counts.sobrepagos} ` +
    `con sobrepago); ${counts.no_identificadas} no identificados quedan en la cola` +
    (counts.repetidas > 0 ? `; ${counts.repetidas} ya se habían aplicado y no cambiaron nada.` : '.')
  );
}

/**
 * POST operator/collections/bank-statement/: reads the file (a bad line → 400 with every line's error and
 * nothing written) and applies every new clave in the caller's transaction.
 */
export async function reconcileBankStatement(
  trx: Db,
  operatorId: number,
  text: string,
  today: IsoDate,
): Promise<BankStatementResult> {
  const parsed = parseBankStatement(text, today);
  if (!parsed.ok) throw new CollectionError(400, BANK_STATEMENT_REFUSALS.badFile, parsed.errors);
  const lines = parsed.lines;
  // Claves recorded before this table existed ('Registrar cobro' of earlier versions) count as applied.
  const earlier = new Set<string>();
  for (const part of chunks(lines))
    for (const row of await trx
      .selectFrom('collections')
      .select('clave_rastreo')
      .where(
        'clave_rastreo',
        'in',
        part.map((line) => line.claveRastreo),
      )
      .execute())
      earlier.add(row.clave_rastreo);
  // Claim the claves in one order (sorted), so two files with common claves queue instead of deadlocking.
  const toClaim = lines
    .filter((line) => !earlier.has(line.claveRastreo))
    .sort((a, b) => (a.claveRastreo < b.claveRastreo ? -1 : a.claveRastreo > b.claveRastreo ? 1 : 0));
  const claimed = new Map<string, number>();
  for (const part of chunks(toClaim)) {
    const rows = await trx
      .insertInto('bank_payments')
      .values(
        part.map((line) => ({
          clave_rastreo: line.claveRastreo,
          fecha: line.fecha,
          amount: formatMoneyAmount(line.amount),
          rfc_ordenante: line.rfcOrdenante,
          nombre_ordenante: line.nombreOrdenante,
          referencia: line.referencia,
          concepto: line.concepto,
          source: 'archivo' as const,
          recorded_by: operatorId,
        })),
      )
      .onConflict((oc) => oc.column('clave_rastreo').doNothing())
      .returning(['id', 'clave_rastreo'])
      .execute();
    for (const row of rows) claimed.set(row.clave_rastreo, row.id);
  }
  const fresh = lines.filter((line) => claimed.has(line.claveRastreo));

  // The batches the references name and the buyers the RFCs name: two queries for the whole file.
  const batchIds = [
    ...new Set(fresh.map((line) => batchOfReference(line.referencia)).filter((id) => id !== null)),
  ];
  const batches = new Map<number, { corporateId: number; dueOn: IsoDate }>();
  for (const part of chunks(batchIds))
    for (const row of await trx
      .selectFrom('maturity_batches')
      .select(['id', 'corporate_id', sql<string>`to_char(due_on, 'YYYY-MM-DD')`.as('due_on')])
      .where('id', 'in', part)
      .execute())
      batches.set(row.id, { corporateId: row.corporate_id, dueOn: row.due_on });
  const rfcs = [...new Set(fresh.map((line) => line.rfcOrdenante).filter((rfc) => rfc !== null))];
  const buyersByRfc = new Map<string, number>();
  for (const part of chunks(rfcs))
    for (const row of await trx
      .selectFrom('companies')
      .select(['id', 'rfc'])
      .where('rfc', 'in', part)
      .where('is_corporate', '=', true)
      .orderBy('id')
      .execute())
      if (row.rfc !== null && !buyersByRfc.has(row.rfc)) buyersByRfc.set(row.rfc, row.id);
  const buyers = new Set([
    ...[...batches.values()].map((batch) => batch.corporateId),
    ...buyersByRfc.values(),
  ]);
  await lockBuyers(trx, buyers);
  const invoices = await openInvoicesOf(trx, [...buyers]);
  const matches = matchPayments(fresh, { batches, buyersByRfc, invoices });

  const applied = matches.filter((entry) => entry.match.kind !== 'no_identificada');
  const payments: PaymentToApply[] = applied.map(({ line, match }) => {
    if (match.kind === 'no_identificada') throw new Error('unreachable');
    return {
      bankPaymentId: claimed.get(line.claveRastreo) ?? null,
      clave: line.claveRastreo,
      fecha: line.fecha,
      corporateId: match.corporateId,
      allocations: match.allocations,
      excess: match.excess,
    };
  });
  await applyPayments(trx, payments, operatorId);
  // Each claimed payment's kind and buyer, then the unidentified ones into the queue.
  for (const part of chunks(matches)) {
    const values = part.map(
      ({ line, match }) =>
        sql`(${claimed.get(line.claveRastreo) ?? 0}::int, ${match.kind}::text, ${
          match.kind === 'no_identificada' ? null : match.corporateId
        }::int)`,
    );
    await sql`update bank_payments b set kind = v.kind, corporate_id = v.corporate_id
      from (values ${sql.join(values)}) as v(id, kind, corporate_id) where b.id = v.id`.execute(trx);
  }
  const unidentified = matches
    .filter((entry) => entry.match.kind === 'no_identificada')
    .map(({ line }) => ({ bank_payment_id: claimed.get(line.claveRastreo) ?? 0 }));
  for (const part of chunks(unidentified))
    await trx.insertInto('unidentified_payments').values(part).execute();

  const byClave = new Map(matches.map((entry) => [entry.line.claveRastreo, entry.match]));
  const counts: BankStatementCounts = {
    exactas: 0,
    parciales: 0,
    sobrepagos: 0,
    no_identificadas: 0,
    repetidas: 0,
  };
  let appliedTotal = 0;
  let creditTotal = 0;
  const results: BankStatementLineResult[] = lines.map((line: BankStatementLine) => {
    const match = byClave.get(line.claveRastreo);
    const kind: PaymentKind = match ? match.kind : 'repetida';
    counts[COUNT_KEYS[kind]] += 1;
    const allocations = match && match.kind !== 'no_identificada' ? match.allocations : [];
    const excess = match && match.kind !== 'no_identificada' ? match.excess : 0;
    appliedTotal += allocations.reduce((sum, allocation) => sum + allocation.amount, 0);
    creditTotal += excess;
    return {
      line: line.line,
      clave_rastreo: line.claveRastreo,
      monto: formatMoneyAmount(line.amount),
      kind,
      corporate_id: match && match.kind !== 'no_identificada' ? match.corporateId : null,
      invoice_ids: allocations.map((allocation) => allocation.invoiceId),
      saldo_a_favor: formatMoneyAmount(excess),
      message: paymentResultMessage(kind, { amount: line.amount, excess, invoices: allocations.length }),
    };
  });
  return {
    counts,
    applied: formatMoneyAmount(appliedTotal),
    saldo_a_favor: formatMoneyAmount(creditTotal),
    message: summary(counts),
    lines: results,
  };
}
