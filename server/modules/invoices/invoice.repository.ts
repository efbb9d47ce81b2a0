import {
  type Expression,
  type ExpressionBuilder,
  type Insertable,
  type Selectable,
  type SqlBool,
  sql,
} from 'kysely';
import type { StoredQuoteFigures } from '../../../src/domain/forward-payment';
import type { InvoiceStatusCode } from '../../../src/domain/invoice-status';
import { EXACT_COUNT_LIMIT } from '../../../src/domain/list-count';
import type { DateRange } from '../../../src/domain/period';
import { type Db, PREPARED } from '../../db/database';
import { containsPattern } from '../../db/like';
import {
  FOLIO_TEXT,
  INVOICE_SEARCH_TEXT,
  SEARCH_TEXT_SEPARATOR,
} from '../../db/migrations/005-scale-indexes';
import { OWN_MXN_PESO_VALUE } from '../../db/migrations/020-peso-value-totals';
import { LONG_WORD_MARK, wordText } from '../../db/migrations/030-search-word-sums';
import type { Database, InvoicesTable, ProofState } from '../../db/schema';

/** Which side of an invoice a call acts on: providers act on invoices they issued, corporates on those they received. */
export type InvoiceSide = 'emitter' | 'receiver';

export interface InvoiceRow {
  id: number;
  cfdi_uuid: string;
  serie: string | null;
  folio: string | null;
  status: InvoiceStatusCode;
  emitter_company_id: number;
  receiver_company_id: number;
  emitter_name: string;
  receiver_name: string;
  date_of_emission: string;
  payment_date: string | null;
  amount: string;
  amount_with_exchange_rate: string;
  currency: string;
  /** The buyer absorbs the advance's cost (the lifecycle's context, decision 0028). */
  buyer_funds_advance: boolean;
}

/** The columns of an InvoiceRow. */
const INVOICE_ROW_COLUMNS = [
  'id',
  'cfdi_uuid',
  'serie',
  'folio',
  'status',
  'emitter_company_id',
  'receiver_company_id',
  'emitter_name',
  'receiver_name',
  'date_of_emission',
  'payment_date',
  'amount',
  'amount_with_exchange_rate',
  'currency',
  'buyer_funds_advance',
] as const;

function asInvoiceRow<T extends { status: number }>(row: T): T & { status: InvoiceStatusCode } {
  return { ...row, status: row.status as InvoiceStatusCode };
}

function companyColumn(side: InvoiceSide) {
  return side === 'emitter' ? 'emitter_company_id' : 'receiver_company_id';
}

/** The other company of a side's invoices: a provider's customer, a corporate's provider. */
function counterpartColumn(side: InvoiceSide) {
  return side === 'emitter' ? 'receiver_company_id' : 'emitter_company_id';
}

/** The invoice with this id if the company is on the given side of it, locked FOR UPDATE when asked. */
export async function findInvoiceOfCompany(
  db: Db,
  invoiceId: number,
  companyId: number,
  side: InvoiceSide,
  options: { lock?: boolean } = {},
): Promise<InvoiceRow | undefined> {
  let query = db
    .selectFrom('invoices')
    .select(INVOICE_ROW_COLUMNS)
    .where('id', '=', invoiceId)
    .where(companyColumn(side), '=', companyId);
  if (options.lock) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  return row && asInvoiceRow(row);
}

/** The company's received invoices with one of these ids or folios fiscales, in id order. */
export async function findInvoicesReceivedBy(
  trx: Db,
  companyId: number,
  refs: { ids: readonly number[]; uuids: readonly string[] },
): Promise<InvoiceRow[]> {
  const rows = await trx
    .selectFrom('invoices')
    .select(INVOICE_ROW_COLUMNS)
    .where('receiver_company_id', '=', companyId)
    .where((eb) =>
      eb.or([
        ...(refs.ids.length > 0 ? [eb('id', 'in', refs.ids)] : []),
        ...(refs.uuids.length > 0 ? [eb('cfdi_uuid', 'in', refs.uuids)] : []),
        eb.val(false),
      ]),
    )
    .orderBy('id')
    .execute();
  return rows.map(asInvoiceRow);
}

type InvoicesEb = ExpressionBuilder<Database, 'invoices'>;

/** The company issued or received the invoice. */
function ofCompany(companyId: number) {
  return (eb: InvoicesEb) =>
    eb.or([eb('emitter_company_id', '=', companyId), eb('receiver_company_id', '=', companyId)]);
}

/** Whether the company issued or received any invoice at all. */
export async function companyHasInvoices(db: Db, companyId: number): Promise<boolean> {
  const invoice = await db
    .selectFrom('invoices')
    .select('id')
    .where(ofCompany(companyId))
    .limit(1)
    .executeTakeFirst();
  return invoice !== undefined;
}

/** What a lifecycle transition needs of an invoice: the machine's inputs and the label its refusals name. */
export interface TransitionRow {
  id: number;
  status: InvoiceStatusCode;
  emitter_company_id: number;
  receiver_company_id: number;
  date_of_emission: string;
  serie: string | null;
  folio: string | null;
  cfdi_uuid: string;
  buyer_funds_advance: boolean;
  /** The MXN amount (face value) an advance reserves on the corporate's credit programme (decision 0052). */
  amount_with_exchange_rate: string;
}

/**
 * Locks these invoices FOR UPDATE until the transaction ends, in one statement and in id order (two batches
 * over the same invoices then lock them in the same order and cannot deadlock).
 */
export async function lockInvoicesForTransition(
  trx: Db,
  invoiceIds: readonly number[],
): Promise<TransitionRow[]> {
  if (invoiceIds.length === 0) return [];
  const rows = await trx
    .selectFrom('invoices')
    .select([
      'id',
      'status',
      'emitter_company_id',
      'receiver_company_id',
      'date_of_emission',
      'serie',
      'folio',
      'cfdi_uuid',
      'buyer_funds_advance',
      'amount_with_exchange_rate',
    ])
    .where('id', 'in', invoiceIds)
    .orderBy('id')
    .forUpdate()
    .execute();
  return rows.map(asInvoiceRow);
}

/** A new status, and what its event carried: a payment date, or a SAT cancellation; and the machine's context. */
export interface StatusChange {
  invoiceId: number;
  status: InvoiceStatusCode;
  paymentDate: string | null;
  satCancelled: boolean;
  buyerFundsAdvance: boolean;
  /** An advance's quote, stored with its move to PROCESS; null keeps the stored figures. */
  quote: StoredQuoteFigures | null;
}

/** Writes every change in one statement (UPDATE … FROM (VALUES …)); a null paymentDate keeps the stored one. */
export async function updateInvoiceStatuses(trx: Db, changes: readonly StatusChange[]): Promise<void> {
  if (changes.length === 0) return;
  const values = sql.join(
    changes.map(
      (change) =>
        sql`(${change.invoiceId}::integer, ${change.status}::smallint, ${change.paymentDate}::date, ${change.satCancelled}::boolean, ${change.buyerFundsAdvance}::boolean, ${change.quote?.cost_financing ?? null}::numeric, ${change.quote?.cost_consultancy ?? null}::numeric, ${change.quote?.factoring_rate ?? null}::numeric, ${change.quote?.factoring_date ?? null}::date)`,
    ),
  );
  await sql`
    update invoices as i
    set status = v.status,
        updated_at = now(),
        payment_date = coalesce(v.payment_date, i.payment_date),
        sat_cancelled_at = case when v.sat_cancelled then now() else i.sat_cancelled_at end,
        buyer_funds_advance = v.buyer_funds_advance,
        cost_financing = coalesce(v.cost_financing, i.cost_financing),
        cost_consultancy = coalesce(v.cost_consultancy, i.cost_consultancy),
        factoring_rate = coalesce(v.factoring_rate, i.factoring_rate),
        factoring_date = coalesce(v.factoring_date, i.factoring_date)
    from (values ${values}) as v (id, status, payment_date, sat_cancelled, buyer_funds_advance, cost_financing,
      cost_consultancy, factoring_rate, factoring_date)
    where i.id = v.id`.execute(trx);
}

/** The figures of an advance's quote, stored with the invoice. */
export type AdvanceQuoteFigures = StoredQuoteFigures;

export async function saveAdvanceQuote(
  trx: Db,
  invoiceId: number,
  figures: AdvanceQuoteFigures,
): Promise<void> {
  await trx
    .updateTable('invoices')
    .set({
      cost_financing: figures.cost_financing,
      cost_consultancy: figures.cost_consultancy,
      factoring_rate: figures.factoring_rate,
      factoring_date: figures.factoring_date,
    })
    .where('id', '=', invoiceId)
    .execute();
}

/** An invoice about to be disbursed, with its stored quote, locked FOR UPDATE until the transaction ends. */
export async function lockInvoiceForDisbursement(
  trx: Db,
  ref: { id: number } | { uuid: string },
): Promise<(InvoiceRow & { cost_financing: string | null; cost_consultancy: string | null }) | undefined> {
  let query = trx
    .selectFrom('invoices')
    .select([...INVOICE_ROW_COLUMNS, 'cost_financing', 'cost_consultancy']);
  query = 'id' in ref ? query.where('id', '=', ref.id) : query.where('cfdi_uuid', '=', ref.uuid);
  const row = await query.forUpdate().executeTakeFirst();
  return row && asInvoiceRow(row);
}

export function findInvoiceByUuid(db: Db, uuid: string) {
  return db.selectFrom('invoices').select(['id', 'status']).where('cfdi_uuid', '=', uuid).executeTakeFirst();
}

/** The folios fiscales among `uuids` that Flujo already holds. */
export async function knownCfdiUuids(db: Db, uuids: readonly string[]): Promise<Set<string>> {
  if (uuids.length === 0) return new Set();
  const rows = await db.selectFrom('invoices').select('cfdi_uuid').where('cfdi_uuid', 'in', uuids).execute();
  return new Set(rows.map((row) => row.cfdi_uuid));
}

/** The stored XML of the invoices with these UUIDs, to tell a repeated file from a conflicting copy. */
export async function storedCfdi(
  db: Db,
  uuids: readonly string[],
): Promise<Map<string, { id: number; xml: string; proofState: ProofState }>> {
  if (uuids.length === 0) return new Map();
  const rows = await db
    .selectFrom('invoices')
    .select(['id', 'cfdi_uuid', 'cfdi_xml', 'proof_state'])
    .where('cfdi_uuid', 'in', uuids)
    .execute();
  return new Map(
    rows.map((row) => [row.cfdi_uuid, { id: row.id, xml: row.cfdi_xml, proofState: row.proof_state }]),
  );
}

/** The distinct companies that received these invoices. */
export async function receiverCompanyIds(db: Db, invoiceIds: readonly number[]): Promise<number[]> {
  const rows = await db
    .selectFrom('invoices')
    .select('receiver_company_id')
    .distinct()
    .where('id', 'in', invoiceIds)
    .execute();
  return rows.map((row) => row.receiver_company_id);
}

export async function insertInvoice(trx: Db, invoice: Insertable<InvoicesTable>): Promise<number> {
  const row = await trx.insertInto('invoices').values(invoice).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

// --- Invoice lists ---

/** What an invoice list filters on, already resolved from the caller's scope and query. */
export interface InvoiceListFilter {
  companyId: number;
  /** emitter: the provider's own invoices; receiver: the corporate's. */
  side: InvoiceSide;
  /** One status, or null for any. */
  status: InvoiceStatusCode | null;
  /** Restricts the list to these statuses as well. */
  statuses?: readonly InvoiceStatusCode[];
  /** Emission date ranges (inclusive), any of which matches; empty: every date. */
  emissionRanges: readonly DateRange[];
  /** Folio, RFC, counterpart or description text; empty: no search. */
  search: string;
}

const LIST_COLUMNS = [
  'id',
  'cfdi_uuid',
  'serie',
  'folio',
  'emitter_name',
  'emitter_rfc',
  'receiver_name',
  'receiver_rfc',
  'date_of_emission',
  'payment_date',
  'amount',
  'currency',
  'exchange_rate',
  'amount_with_exchange_rate',
  'description',
  'status',
  'factoring_date',
  'factoring_rate',
  'cost_consultancy',
  // Whose terms factoring_rate and cost_consultancy are: the buyer's own when it funds the advance.
  'buyer_funds_advance',
] as const;

/** A list row: exactly the columns LIST_COLUMNS selects, typed by the table. */
export type InvoiceListRow = Pick<Selectable<InvoicesTable>, (typeof LIST_COLUMNS)[number]>;

function listFilter(filter: InvoiceListFilter) {
  return (eb: InvoicesEb): Expression<SqlBool> => {
    const conditions: Expression<SqlBool>[] = [eb(companyColumn(filter.side), '=', filter.companyId)];
    if (filter.status !== null) conditions.push(eb('status', '=', filter.status));
    if (filter.statuses !== undefined) conditions.push(eb('status', 'in', filter.statuses));
    if (filter.emissionRanges.length > 0) {
      conditions.push(
        eb.or(filter.emissionRanges.map((range) => eb.between('date_of_emission', range.from, range.to))),
      );
    }
    if (filter.search) {
      const pattern = containsPattern(filter.search);
      // The side's search text (migration 005) holds the fields apart, so one ILIKE on it is the same as one ILIKE
      // per field, and its trigram index serves it.
      conditions.push(eb(sql.raw<string>(INVOICE_SEARCH_TEXT[filter.side]), 'ilike', pattern));
      // A search holding the separator itself would match across fields there; per field it matches nothing.
      if (filter.search.includes(SEARCH_TEXT_SEPARATOR)) conditions.push(eb.val(false));
    }
    return eb.and(conditions);
  };
}

/** Count and sums of the invoices a list's filter matches (not only one page; a search's: see summaryQuery). */
export interface InvoiceListSummary {
  count: number;
  /** Sum of the MXN amounts (amount_with_exchange_rate), numeric text. */
  total: string;
  /** Distinct counterparts (customers of a provider, providers of a corporate). */
  counterparts: number;
  /** Sums of the invoices' own amounts: those not in dollars, and those in dollars. */
  ownMxn: string;
  ownUsd: string;
  /** False when `count` was taken up to a limit (a search's capped recheck, decision 0074). */
  exact: boolean;
}

/** The company's balances a list's first page shows (the same row findCompanyBalances reads). */
export interface ListCompanyBalances {
  credit_line: string;
  credit_used: string;
  spei_balance: string;
  has_factoring: boolean;
}

/**
 * The summary of a filter as a query. Without a period or a search it reads invoice_totals (a few rows per
 * counterpart and status, kept by the database, migration 005); with a period it aggregates the matching
 * invoices, which the period's range has already narrowed. A search that is one word (decision 0075) is answered
 * exactly from the kept words, at any size (keptWordSummary). Any other search (decision 0074) first reads its
 * kept lower bound; past `countLimit` that bound is the answer and no match is read. Otherwise it aggregates at
 * most `countLimit + 1` matches: each match the trigram index finds is rechecked against the text, so one more
 * than the limit is enough to tell the caller there are more (its sums are then of part of the matches, and the
 * caller leaves them out). `s_exact` says whether the count is exact whatever its size.
 */
function summaryQuery(db: Db, filter: InvoiceListFilter, countLimit: number) {
  if (filter.emissionRanges.length === 0 && filter.search === '') {
    let query = db
      .selectFrom('invoice_totals')
      .where('company_id', '=', filter.companyId)
      .where('side', '=', filter.side)
      .where('invoices', '>', 0);
    if (filter.status !== null) query = query.where('status', '=', filter.status);
    if (filter.statuses !== undefined) query = query.where('status', 'in', filter.statuses);
    return query.select([
      sql<number>`coalesce(sum(invoices), 0)`.as('s_count'),
      sql<string>`coalesce(sum(amount_mxn), 0)`.as('s_total'),
      sql<number>`count(distinct counterpart_id)`.as('s_counterparts'),
      sql<string>`coalesce(sum(amount_own_mxn), 0)`.as('s_mxn'),
      sql<string>`coalesce(sum(amount_own_usd), 0)`.as('s_usd'),
      sql<boolean>`true`.as('s_exact'),
    ]);
  }
  const counterpart = counterpartColumn(filter.side);
  let matches = db
    .selectFrom('invoices')
    .where(listFilter(filter))
    .select((eb) => [
      'amount_with_exchange_rate',
      'amount',
      'currency',
      eb.ref(counterpart).as('counterpart'),
    ]);
  if (filter.search === '') {
    return db
      .selectFrom(matches.as('m'))
      .select((eb) => [
        eb.fn.countAll<number>().as('s_count'),
        ...matchSums,
        sql<boolean>`true`.as('s_exact'),
      ]);
  }
  // A word past the limit needs no recheck at all: its count in invoice_words is already more than the limit, and
  // the matches are then not read (a one-time filter). Otherwise at most limit + 1 matches are.
  const bound = wordLowerBound(filter);
  matches = matches.where(sql<SqlBool>`(${bound}) <= ${countLimit}`).limit(countLimit + 1);
  const capped = db
    .selectFrom(matches.as('m'))
    .select([
      sql<number>`greatest(count(*), (${bound}))`.as('s_count'),
      ...matchSums,
      sql<boolean>`false`.as('s_exact'),
    ]);
  if (narrowedBeyondWords(filter)) return capped;
  // Exactly one of the two runs: each is behind a one-time filter on the same condition.
  const kept = keptWordsAnswer(filter);
  return sql`select * from (${keptWordSummary(filter)}) as kept where ${kept}
    union all
    select * from (${capped}) as capped where not ${kept}`;
}

/** The sums of a summary's matches (`m`: amount_with_exchange_rate, amount, currency, counterpart). */
const matchSums = [
  sql<string>`coalesce(sum(m.amount_with_exchange_rate), 0)`.as('s_total'),
  sql<number>`count(distinct m.counterpart)`.as('s_counterparts'),
  sql<string>`coalesce(sum(m.amount_with_exchange_rate) filter (where m.currency <> 'USD'), 0)`.as('s_mxn'),
  sql<string>`coalesce(sum(m.amount) filter (where m.currency = 'USD'), 0)`.as('s_usd'),
];

/** A list narrowed by status or period: invoice_words knows neither, so it cannot answer for such a list. */
function narrowedBeyondWords(filter: InvoiceListFilter): boolean {
  return filter.emissionRanges.length > 0 || filter.status !== null || filter.statuses !== undefined;
}

/** The company's kept words on the list's side that hold the search (none for a search that no word can hold). */
function wordsHolding(filter: InvoiceListFilter) {
  return sql`from invoice_words
    where company_id = ${filter.companyId} and side = ${filter.side}
      and word like lower(${containsPattern(filter.search)}) and invoices > 0`;
}

/**
 * Whether the kept words answer a search exactly (decision 0075): the search is letters and digits with a letter,
 * three characters or more, so it matches an invoice's word text exactly when one of its kept words holds it; at
 * most one of the company's words holds it, so no invoice is counted twice; and the company has no word too long
 * to keep (LONG_WORD_MARK). A list narrowed by status or period never gets here (the words know neither).
 */
function keptWordsAnswer(filter: InvoiceListFilter) {
  return sql<SqlBool>`(lower(${filter.search}) ~ '^[[:alnum:]]*[[:alpha:]][[:alnum:]]*$'
    and length(lower(${filter.search})) >= 3
    and not exists (select 1 from invoice_words
      where company_id = ${filter.companyId} and side = ${filter.side} and word = ${LONG_WORD_MARK} and invoices > 0)
    and (select count(distinct word) ${wordsHolding(filter)}) <= 1)`;
}

/**
 * A one-word search's summary from the kept rows of its word (per counterpart, with the sums) plus the invoices
 * whose folio fields alone hold it (the folio fiscal, serie and folio are not words; their own trigram index finds
 * them, usually none): each match once, no match rechecked.
 */
function keptWordSummary(filter: InvoiceListFilter) {
  const pattern = containsPattern(filter.search);
  const counterpart = sql.ref(counterpartColumn(filter.side));
  return sql`select coalesce(sum(x.n), 0) as s_count, coalesce(sum(x.mxn), 0) as s_total,
      count(distinct x.counterpart) as s_counterparts, coalesce(sum(x.own_mxn), 0) as s_mxn,
      coalesce(sum(x.own_usd), 0) as s_usd, true as s_exact
    from (
      select counterpart_id, invoices, amount_mxn, amount_own_mxn, amount_own_usd ${wordsHolding(filter)}
      union all
      select ${counterpart}, 1, amount_with_exchange_rate, ${sql.raw(OWN_MXN_PESO_VALUE)},
        case when currency = 'USD' then amount else 0 end
      from invoices
      where ${sql.ref(companyColumn(filter.side))} = ${filter.companyId}
        and ${sql.raw(FOLIO_TEXT)} ilike ${pattern}
        and not (${sql.raw(wordText(filter.side))} ilike ${pattern})
    ) as x (counterpart, n, mxn, own_mxn, own_usd)`;
}

/**
 * A lower bound of a search's matches from invoice_words: the company's invoices on this side holding the kept
 * word that holds the search most often (each is matched by the search). 0 for a search no word holds (two words,
 * a folio) and for a list narrowed by status or period (the table knows neither).
 */
function wordLowerBound(filter: InvoiceListFilter) {
  if (narrowedBeyondWords(filter)) return sql<number>`0`;
  return sql<number>`select coalesce(max(n), 0) from (select sum(invoices) as n ${wordsHolding(filter)} group by word) as w`;
}

type ListPageRow = { [K in keyof InvoiceListRow]: InvoiceListRow[K] | null } & {
  s_count: number | string;
  s_total: string;
  s_counterparts: number | string;
  s_mxn: string;
  s_usd: string;
  s_exact: boolean;
  b_credit_line?: string;
  b_credit_used?: string;
  b_spei_balance?: string;
  b_has_factoring?: boolean;
};

/** The invoice's columns of a page row (the summary and balance columns dropped): one object, no per-column map. */
function listRowOf(row: ListPageRow): InvoiceListRow {
  const {
    s_count: _count,
    s_total: _total,
    s_counterparts: _counterparts,
    s_mxn: _mxn,
    s_usd: _usd,
    s_exact: _exact,
    b_credit_line: _creditLine,
    b_credit_used: _creditUsed,
    b_spei_balance: _speiBalance,
    b_has_factoring: _hasFactoring,
    ...invoice
  } = row;
  return invoice as InvoiceListRow;
}

/** A page size fit to be written into a statement's text: a validated whole number, never the caller's text. */
function pageSizeLiteral(limit: number): number {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new Error(`not a page size: ${limit}`);
  return limit;
}

/**
 * One page of the matching invoices, newest emission first, with the summary of the matches (a search's counted
 * up to `countLimit + 1`, decision 0074) and, when asked, the company's balances: one statement, one round trip.
 * The page is found in the list's index alone (ids, LIMIT/OFFSET) and only its rows are read from the table (a
 * deferred join), so page 40 costs about what page 1 does; an offset past the end gives no rows and the summary
 * still. The page is never capped: its rows are exactly the right ones.
 */
export async function findInvoiceListPage(
  db: Db,
  filter: InvoiceListFilter,
  page: { limit: number; offset: number },
  options: { balances: boolean; countLimit?: number; prepared?: boolean },
): Promise<{ summary: InvoiceListSummary; rows: InvoiceListRow[]; balances: ListCompanyBalances | null }> {
  // A browsed list (invoice-list.ts isBrowsing) has one good plan whatever its values: PostgreSQL keeps it prepared.
  const prepared = options.prepared === true;
  const ids = db
    .selectFrom('invoices')
    .where(listFilter(filter))
    .select('id')
    .orderBy('date_of_emission', 'desc')
    .orderBy('id', 'desc')
    // Prepared, the page size is written into the text: with it as a parameter PostgreSQL's generic plan expects
    // far more rows than a page, costs more than a custom plan, and every run is planned again (0076).
    .limit(prepared ? sql.lit(pageSizeLiteral(page.limit)) : page.limit)
    .offset(page.offset);
  const columns = sql.join(LIST_COLUMNS.map((column) => sql.ref(`i.${column}`)));
  const balances = options.balances
    ? sql`, c.credit_line as b_credit_line, c.credit_used as b_credit_used, c.spei_balance as b_spei_balance, c.has_factoring as b_has_factoring`
    : sql``;
  const balancesJoin = options.balances
    ? sql`cross join (select credit_line, credit_used, spei_balance, has_factoring from companies where id = ${filter.companyId}) as c`
    : sql``;
  const { rows } = await sql<ListPageRow>`${prepared ? sql.raw(PREPARED) : sql``}
    with summary as (${summaryQuery(db, filter, options.countLimit ?? EXACT_COUNT_LIMIT)}), page_ids as (${ids})
    select summary.* ${balances}, ${columns}
    from summary
    ${balancesJoin}
    left join (page_ids join invoices as i on i.id = page_ids.id) on true
    order by i.date_of_emission desc, i.id desc`.execute(db);
  const first = rows[0];
  if (!first) throw new Error('the list summary returned no row');
  return {
    summary: {
      count: Number(first.s_count),
      total: String(first.s_total),
      counterparts: Number(first.s_counterparts),
      ownMxn: String(first.s_mxn),
      ownUsd: String(first.s_usd),
      exact: first.s_exact === true,
    },
    rows: rows.flatMap((row) => (row.id === null ? [] : [listRowOf(row)])),
    balances: options.balances
      ? {
          credit_line: String(first.b_credit_line),
          credit_used: String(first.b_credit_used),
          spei_balance: String(first.b_spei_balance),
          has_factoring: first.b_has_factoring === true,
        }
      : null,
  };
}

/**
 * The company's invoices among `ids` that the filter's scope allows (side, statuses; the query filters are not
 * applied), newest emission first: a report of rows the caller selected in a list.
 */
export function findListRowsByIds(
  db: Db,
  scope: Pick<InvoiceListFilter, 'companyId' | 'side' | 'statuses'>,
  ids: readonly number[],
): Promise<InvoiceListRow[]> {
  if (ids.length === 0) return Promise.resolve([]);
  let query = db
    .selectFrom('invoices')
    .select(LIST_COLUMNS)
    // One array parameter instead of thousands of placeholders (a report may name 10,000 ids).
    .where('id', '=', sql<number>`any(${[...ids]}::integer[])`)
    .where(companyColumn(scope.side), '=', scope.companyId);
  if (scope.statuses !== undefined) query = query.where('status', 'in', scope.statuses);
  return query.orderBy('date_of_emission', 'desc').orderBy('id', 'desc').execute();
}

/** The distinct payment dates from `from` on among the matching invoices, soonest first, at most `limit`. */
export async function findUpcomingPaymentDates(
  db: Db,
  filter: InvoiceListFilter,
  from: string,
  limit: number,
): Promise<string[]> {
  const rows = await db
    .selectFrom('invoices')
    .where(listFilter(filter))
    .where('payment_date', '>=', from)
    .select('payment_date')
    .distinct()
    .orderBy('payment_date')
    .limit(limit)
    .execute();
  return rows.flatMap((row) => (row.payment_date === null ? [] : [row.payment_date]));
}

/** A date and the money due on it (numeric text, summed by the database). */
export interface DueOnDate {
  date: string;
  total: string;
}

/**
 * The first payment date from `from` on among the matching invoices and the sum of the MXN amounts
 * (amount_with_exchange_rate) of the matches due that day; null when none is due from then on.
 */
export async function findNextPaymentDue(
  db: Db,
  filter: InvoiceListFilter,
  from: string,
): Promise<DueOnDate | null> {
  const row = await db
    .selectFrom('invoices')
    .where(listFilter(filter))
    .where('payment_date', '>=', from)
    .select((eb) => ['payment_date', eb.fn.sum<string>('amount_with_exchange_rate').as('total')])
    .groupBy('payment_date')
    .orderBy('payment_date')
    .limit(1)
    .executeTakeFirst();
  return row?.payment_date ? { date: row.payment_date, total: String(row.total) } : null;
}

/**
 * The first due date from `from` on among the unpaid factoring instalments of the matching invoices and the sum
 * of the instalments due that day; null when none is.
 */
export async function findNextInstalmentDue(
  db: Db,
  filter: InvoiceListFilter,
  from: string,
): Promise<DueOnDate | null> {
  const row = await db
    .selectFrom('factoring_instalments as instalment')
    .innerJoin('factoring_requests as request', 'request.id', 'instalment.factoring_request_id')
    .where('request.invoice_id', 'in', db.selectFrom('invoices').where(listFilter(filter)).select('id'))
    .where('instalment.paid_at', 'is', null)
    .where('instalment.due_date', '>=', from)
    .select((eb) => ['instalment.due_date', eb.fn.sum<string>('instalment.amount').as('total')])
    .groupBy('instalment.due_date')
    .orderBy('instalment.due_date')
    .limit(1)
    .executeTakeFirst();
  return row ? { date: row.due_date, total: String(row.total) } : null;
}

// --- Bulk authorization by file (server/modules/corporates/bulk-upload.service.ts) ---

/** An invoice as the bulk uploads read it: what a template row shows and what the lifecycle machine needs. */
export interface InvoiceFactsRow {
  id: number;
  cfdi_uuid: string;
  serie: string | null;
  folio: string | null;
  status: InvoiceStatusCode;
  emitter_company_id: number;
  receiver_company_id: number;
  emitter_rfc: string;
  emitter_name: string;
  date_of_emission: string;
  currency: string;
  amount: string;
  buyer_funds_advance: boolean;
}

/** The columns of an InvoiceFactsRow, read alike by every query that returns one. */
const INVOICE_FACTS_COLUMNS = [
  'id',
  'cfdi_uuid',
  'serie',
  'folio',
  'status',
  'emitter_company_id',
  'receiver_company_id',
  'emitter_rfc',
  'emitter_name',
  'date_of_emission',
  'currency',
  'amount',
  'buyer_funds_advance',
] as const;

/**
 * The company's received invoices in these statuses, newest emission first, at most `limit`. For the caller
 * the statuses only narrow the read; the lifecycle machine decides what may be done with each.
 */
export async function findReceivedInvoicesInStatuses(
  db: Db,
  companyId: number,
  statuses: readonly InvoiceStatusCode[],
  limit: number,
): Promise<InvoiceFactsRow[]> {
  const rows = await db
    .selectFrom('invoices')
    .select(INVOICE_FACTS_COLUMNS)
    .where('receiver_company_id', '=', companyId)
    .where('status', 'in', statuses)
    .orderBy('date_of_emission', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, status: row.status as InvoiceStatusCode }));
}

/** The invoices Flujo already holds with these folios fiscales (any receiver), by UUID. */
export async function findInvoicesByUuid(
  db: Db,
  uuids: readonly string[],
): Promise<Map<string, InvoiceFactsRow>> {
  if (uuids.length === 0) return new Map();
  const rows = await db
    .selectFrom('invoices')
    .select(INVOICE_FACTS_COLUMNS)
    .where('cfdi_uuid', 'in', uuids)
    .execute();
  return new Map(rows.map((row) => [row.cfdi_uuid, { ...row, status: row.status as InvoiceStatusCode }]));
}
