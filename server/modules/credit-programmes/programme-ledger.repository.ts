import { sql } from 'kysely';
import type { IsoDate } from '../../../src/domain/calendar-date';
import { type Centavos, formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import {
  PROGRAMME_REFUSALS,
  programmeLendingRefusal,
  programmeRoomRefusal,
} from '../../../src/domain/programme-lending';
import type { Db } from '../../db/database';
import type { LedgerKind, ProgrammeState } from '../../db/schema';
import { concentrationRefusal } from '../exposure/exposure.service';

// The one home of a credit programme's arithmetic (issue 19, decision 0052): an advance reserves the invoice's
// MXN amount, the disbursement uses it, the corporate's payment releases it; a desk rejection cancels the
// reservation. reserved and used on the programme row are the ledger's running sums, changed only here, with
// the programme row locked, so concurrent advances queue on it and the table's CHECK refuses any overdraw.

/** 'Adelantar pago' refused by the buyer's programme: the invoice stays as it was (409, Spanish). */
export class ProgrammeRefusalError extends Error {
  readonly statusCode = 409;
}

export interface ProgrammeBalances {
  programmeId: number;
  corporateId: number;
  state: ProgrammeState;
  limit: string;
  reserved: string;
  used: string;
  available: string;
  startsOn: IsoDate | null;
  endsOn: IsoDate | null;
}

interface ProgrammeRow {
  id: number;
  corporate_id: number;
  limit_amount: string;
  reserved: string;
  used: string;
  starts_on: string | null;
  ends_on: string | null;
  state: ProgrammeState;
  frozen_for: 'morosidad' | null;
}

const PROGRAMME_COLUMNS = [
  'id',
  'corporate_id',
  'limit_amount',
  'reserved',
  'used',
  'starts_on',
  'ends_on',
  'state',
  'frozen_for',
] as const;

function lockProgramme(trx: Db, where: { corporateId: number } | { programmeId: number }) {
  const query = trx.selectFrom('credit_programmes').select(PROGRAMME_COLUMNS);
  return (
    'corporateId' in where
      ? query.where('corporate_id', '=', where.corporateId)
      : query.where('id', '=', where.programmeId)
  )
    .forUpdate()
    .executeTakeFirst() as Promise<ProgrammeRow | undefined>;
}

function availableOf(row: Pick<ProgrammeRow, 'limit_amount' | 'reserved' | 'used'>): Centavos {
  return parseMoney(row.limit_amount) - parseMoney(row.reserved) - parseMoney(row.used);
}

function balancesOf(row: ProgrammeRow): ProgrammeBalances {
  return {
    programmeId: row.id,
    corporateId: row.corporate_id,
    state: row.state,
    limit: row.limit_amount,
    reserved: row.reserved,
    used: row.used,
    available: formatMoneyAmount(availableOf(row)),
    startsOn: row.starts_on,
    endsOn: row.ends_on,
  };
}

/** What an invoice holds from its ledger rows: reserved (reserve − use − cancel) and used (use − release). */
export function holdingsOf(rows: readonly { kind: LedgerKind; amount: string }[]): {
  reserved: Centavos;
  used: Centavos;
} {
  let reserved = 0;
  let used = 0;
  for (const row of rows) {
    const amount = parseMoney(row.amount);
    if (row.kind === 'reserve') reserved += amount;
    else if (row.kind === 'use') {
      reserved -= amount;
      used += amount;
    } else if (row.kind === 'cancel') reserved -= amount;
    else used -= amount;
  }
  return { reserved, used };
}

/** What the invoice holds on its programme now. */
export async function invoiceHoldings(
  trx: Db,
  invoiceId: number,
): Promise<{ programmeId: number; reserved: Centavos; used: Centavos } | null> {
  const rows = await trx
    .selectFrom('programme_ledger')
    .select(['programme_id', 'kind', 'amount'])
    .where('invoice_id', '=', invoiceId)
    .orderBy('id')
    .execute();
  const first = rows[0];
  if (!first) return null;
  return { programmeId: first.programme_id, ...holdingsOf(rows) };
}

/** What each of several invoices holds, in one query (a list of desk items reads them all at once). */
export async function holdingsOfInvoices(
  db: Db,
  invoiceIds: readonly number[],
): Promise<Map<number, { reserved: Centavos; used: Centavos }>> {
  if (invoiceIds.length === 0) return new Map();
  const rows = await db
    .selectFrom('programme_ledger')
    .select(['invoice_id', 'kind', 'amount'])
    .where('invoice_id', 'in', invoiceIds)
    .orderBy('id')
    .execute();
  return holdingsByInvoice(rows);
}

/** holdingsOf for each invoice found among ledger rows of several invoices. */
export function holdingsByInvoice(
  rows: readonly { invoice_id: number; kind: LedgerKind; amount: string }[],
): Map<number, { reserved: Centavos; used: Centavos }> {
  const byInvoice = new Map<number, (typeof rows)[number][]>();
  for (const row of rows) {
    const entries = byInvoice.get(row.invoice_id);
    if (entries) entries.push(row);
    else byInvoice.set(row.invoice_id, [row]);
  }
  return new Map([...byInvoice].map(([invoiceId, entries]) => [invoiceId, holdingsOf(entries)]));
}

async function move(
  trx: Db,
  programme: ProgrammeRow,
  entry: {
    invoiceId: number;
    kind: LedgerKind;
    amount: Centavos;
    reference?: string | null;
    actorUserId: number | null;
  },
): Promise<void> {
  const amount = formatMoneyAmount(entry.amount);
  // reserve: available → reserved; use: reserved → used; cancel: reserved → available; release: used → available.
  const delta = {
    reserve: { reserved: entry.amount, used: 0 },
    use: { reserved: -entry.amount, used: entry.amount },
    cancel: { reserved: -entry.amount, used: 0 },
    release: { reserved: 0, used: -entry.amount },
  }[entry.kind];
  await trx
    .updateTable('credit_programmes')
    .set({
      reserved: formatMoneyAmount(parseMoney(programme.reserved) + delta.reserved),
      used: formatMoneyAmount(parseMoney(programme.used) + delta.used),
      updated_at: sql<string>`now()`,
    })
    .where('id', '=', programme.id)
    .execute();
  await trx
    .insertInto('programme_ledger')
    .values({
      programme_id: programme.id,
      invoice_id: entry.invoiceId,
      kind: entry.kind,
      amount,
      reference: entry.reference ?? null,
      actor_user_id: entry.actorUserId,
    })
    .execute();
}

/**
 * 'Adelantar pago': reserves the invoice's MXN amount on its buyer's programme, in the caller's transaction
 * (the one that moves the invoice to En trámite), or throws the Spanish refusal. An invoice that already holds
 * a reservation (a bank return put it back on the desk) is not reserved twice.
 */
export async function reserveForAdvance(
  trx: Db,
  input: {
    corporateId: number;
    invoiceId: number;
    amount: string;
    today: IsoDate;
    actorUserId: number | null;
  },
): Promise<void> {
  const programme = await lockProgramme(trx, { corporateId: input.corporateId });
  const refusal = programmeLendingRefusal(
    programme
      ? {
          state: programme.state,
          startsOn: programme.starts_on,
          endsOn: programme.ends_on,
          frozenFor: programme.frozen_for,
        }
      : null,
    input.today,
  );
  if (refusal !== null || !programme) throw new ProgrammeRefusalError(refusal ?? PROGRAMME_REFUSALS.none);
  const held = await invoiceHoldings(trx, input.invoiceId);
  if (held && held.reserved > 0) return;
  const amount = parseMoney(input.amount);
  const noRoom = programmeRoomRefusal(availableOf(programme), amount);
  if (noRoom !== null) throw new ProgrammeRefusalError(noRoom);
  // The concentration caps on the buyer, its economic group and the supplier (decision 0069), under their own
  // row locks taken after the programme's, so concurrent advances never pass a cap either.
  const invoice = await trx
    .selectFrom('invoices')
    .select('emitter_company_id')
    .where('id', '=', input.invoiceId)
    .executeTakeFirst();
  const overCap = await concentrationRefusal(trx, {
    buyerId: input.corporateId,
    supplierId: invoice?.emitter_company_id ?? 0,
    amount,
  });
  if (overCap !== null) throw new ProgrammeRefusalError(overCap);
  await move(trx, programme, {
    invoiceId: input.invoiceId,
    kind: 'reserve',
    amount,
    actorUserId: input.actorUserId,
  });
}

/** The advance was paid: its whole reservation becomes used. Returns the amount moved (0 when none was held). */
export async function useReservation(
  trx: Db,
  invoiceId: number,
  actorUserId: number | null,
): Promise<Centavos> {
  return settleReservation(trx, invoiceId, 'use', actorUserId);
}

/** The desk rejected the advance: its reservation goes back to available. Returns the amount (0 when none). */
export async function cancelReservation(
  trx: Db,
  invoiceId: number,
  actorUserId: number | null,
): Promise<Centavos> {
  return settleReservation(trx, invoiceId, 'cancel', actorUserId);
}

async function settleReservation(
  trx: Db,
  invoiceId: number,
  kind: 'use' | 'cancel',
  actorUserId: number | null,
): Promise<Centavos> {
  const before = await invoiceHoldings(trx, invoiceId);
  if (!before) return 0;
  const programme = await lockProgramme(trx, { programmeId: before.programmeId });
  if (!programme) return 0;
  // Read again under the programme's lock: another transaction may have settled it meanwhile.
  const held = await invoiceHoldings(trx, invoiceId);
  if (!held || held.reserved <= 0) return 0;
  await move(trx, programme, { invoiceId, kind, amount: held.reserved, actorUserId });
  return held.reserved;
}

/**
 * The corporate paid (all or part of) an advanced invoice: releases that much of what the invoice uses, never
 * more. Returns the amount released (0 when the invoice uses nothing).
 */
export async function releaseCollection(
  trx: Db,
  input: { invoiceId: number; amount: string; reference: string | null; actorUserId: number | null },
): Promise<Centavos> {
  const before = await invoiceHoldings(trx, input.invoiceId);
  if (!before) return 0;
  const programme = await lockProgramme(trx, { programmeId: before.programmeId });
  if (!programme) return 0;
  const held = await invoiceHoldings(trx, input.invoiceId);
  if (!held || held.used <= 0) return 0;
  const amount = Math.min(parseMoney(input.amount), held.used);
  if (amount <= 0) return 0;
  await move(trx, programme, {
    invoiceId: input.invoiceId,
    kind: 'release',
    amount,
    reference: input.reference,
    actorUserId: input.actorUserId,
  });
  return amount;
}

/** The corporate's programme and its balances, or null when it has none. */
export async function programmeBalances(db: Db, corporateId: number): Promise<ProgrammeBalances | null> {
  const row = (await db
    .selectFrom('credit_programmes')
    .select(PROGRAMME_COLUMNS)
    .where('corporate_id', '=', corporateId)
    .executeTakeFirst()) as ProgrammeRow | undefined;
  return row ? balancesOf(row) : null;
}

export interface LedgerEntry {
  id: number;
  invoiceId: number;
  kind: LedgerKind;
  amount: string;
  reference: string | null;
  actorUserId: number | null;
  at: string;
}

/** A programme's ledger, oldest first. */
export async function ledgerOf(db: Db, programmeId: number): Promise<LedgerEntry[]> {
  const rows = await db
    .selectFrom('programme_ledger')
    .select(['id', 'invoice_id', 'kind', 'amount', 'reference', 'actor_user_id', 'at'])
    .where('programme_id', '=', programmeId)
    .orderBy('id')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    invoiceId: row.invoice_id,
    kind: row.kind,
    amount: row.amount,
    reference: row.reference,
    actorUserId: row.actor_user_id,
    at: row.at,
  }));
}

/**
 * Many payments at once (the bank's statement, decision 0067): like releaseCollection for each item in order,
 * with the programmes involved locked once (by id, so two files queue the same way) and the ledger rows written
 * in bulk. Returns what each item released, in the items' order, and each invoice's programme.
 */
export async function releaseCollections(
  trx: Db,
  items: readonly { invoiceId: number; amount: Centavos; reference: string }[],
  actorUserId: number,
): Promise<{ released: Centavos[]; programmeOf: Map<number, number> }> {
  const released = items.map(() => 0);
  const invoiceIds = [...new Set(items.map((item) => item.invoiceId))];
  if (invoiceIds.length === 0) return { released, programmeOf: new Map() };
  const ledgerRows = async () => {
    const rows: { invoice_id: number; programme_id: number; kind: LedgerKind; amount: string }[] = [];
    for (let start = 0; start < invoiceIds.length; start += 5_000)
      rows.push(
        ...(await trx
          .selectFrom('programme_ledger')
          .select(['invoice_id', 'programme_id', 'kind', 'amount'])
          .where('invoice_id', 'in', invoiceIds.slice(start, start + 5_000))
          .orderBy('id')
          .execute()),
      );
    return rows;
  };
  const programmeOf = new Map((await ledgerRows()).map((row) => [row.invoice_id, row.programme_id]));
  const programmeIds = [...new Set(programmeOf.values())].sort((a, b) => a - b);
  if (programmeIds.length === 0) return { released, programmeOf };
  const programmes = (await trx
    .selectFrom('credit_programmes')
    .select(PROGRAMME_COLUMNS)
    .where('id', 'in', programmeIds)
    .orderBy('id')
    .forUpdate()
    .execute()) as ProgrammeRow[];
  // Read again under the programmes' locks: a concurrent payment may have released meanwhile.
  const holdings = holdingsByInvoice(await ledgerRows());
  const usedLeft = new Map([...holdings].map(([invoiceId, held]) => [invoiceId, held.used]));
  const releasedByProgramme = new Map<number, Centavos>();
  const entries: {
    programme_id: number;
    invoice_id: number;
    kind: LedgerKind;
    amount: string;
    reference: string;
    actor_user_id: number;
  }[] = [];
  items.forEach((item, index) => {
    const programmeId = programmeOf.get(item.invoiceId);
    const used = usedLeft.get(item.invoiceId) ?? 0;
    const amount = Math.min(item.amount, used);
    if (programmeId === undefined || amount <= 0) return;
    usedLeft.set(item.invoiceId, used - amount);
    released[index] = amount;
    releasedByProgramme.set(programmeId, (releasedByProgramme.get(programmeId) ?? 0) + amount);
    entries.push({
      programme_id: programmeId,
      invoice_id: item.invoiceId,
      kind: 'release',
      amount: formatMoneyAmount(amount),
      reference: item.reference,
      actor_user_id: actorUserId,
    });
  });
  for (let start = 0; start < entries.length; start += 5_000)
    await trx
      .insertInto('programme_ledger')
      .values(entries.slice(start, start + 5_000))
      .execute();
  for (const programme of programmes) {
    const amount = releasedByProgramme.get(programme.id) ?? 0;
    if (amount <= 0) continue;
    await trx
      .updateTable('credit_programmes')
      .set({
        used: formatMoneyAmount(parseMoney(programme.used) - amount),
        updated_at: sql<string>`now()`,
      })
      .where('id', '=', programme.id)
      .execute();
  }
  return { released, programmeOf };
}
