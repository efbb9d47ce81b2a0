// Issue 16 (100,000 invoices per supplier at interactive speed). Migrations 001-004 stay as written.
// docs/decisions/0039-lists-at-scale.md explains each piece; docs/performance.md keeps the plans.

/**
 * The text a list's search looks in, per side: the fields its ILIKE conditions read, joined by a unit separator
 * (U+001F), which no field can hold (CFDI text is XML 1.0) and which a search of it matches nowhere. So a
 * pattern without it matches this text exactly when it matches one of the fields, and the trigram index on it
 * serves the search. The provider searches its issued invoices by folio fiscal, folio, serie-folio, its
 * customer's RFC and name and the description; the corporate its received ones by the provider's instead.
 * The repository uses these very expressions, or the planner would not match the index.
 */
const SEPARATOR = `E'\\x1f'`;
// concat_ws('-', serie, folio) and concat(serie, folio) written with immutable operators (an index needs them);
// folio alone is inside the first.
export const FOLIO_TEXT = `cfdi_uuid || ${SEPARATOR} || coalesce(serie || '-' || folio, serie, folio, '') || ${SEPARATOR} || coalesce(serie, '') || coalesce(folio, '')`;
export const INVOICE_SEARCH_TEXT = {
  emitter: `(${FOLIO_TEXT} || ${SEPARATOR} || receiver_rfc || ${SEPARATOR} || receiver_name || ${SEPARATOR} || description)`,
  receiver: `(${FOLIO_TEXT} || ${SEPARATOR} || emitter_rfc || ${SEPARATOR} || emitter_name || ${SEPARATOR} || description)`,
} as const;

/** The character between the fields of INVOICE_SEARCH_TEXT. */
export const SEARCH_TEXT_SEPARATOR = '\x1f';

/**
 * What an invoice adds to invoice_totals.amount_own_mxn. As written here it was the own amount of every
 * non-USD invoice, which adds a EUR invoice's euros to the pesos; migration 020 replaces it with the peso value.
 */
export const OWN_MXN_AS_WRITTEN = `case when currency = 'USD' then 0 else amount end`;

function amounts(ownMxn: string): string {
  return `amount_with_exchange_rate,
    ${ownMxn},
    case when currency = 'USD' then amount else 0 end`;
}

/** Both sides' rows of a transition table as signed deltas of invoice_totals. */
function deltas(table: 'new_rows' | 'old_rows', sign: 1 | -1, ownMxn: string): string {
  const s = sign === 1 ? '' : '-';
  return `select emitter_company_id, 'emitter', receiver_company_id, status, ${sign},
      ${s}amount_with_exchange_rate, ${s}(${ownMxn}),
      ${s}(case when currency = 'USD' then amount else 0 end)
    from ${table}
    union all
    select receiver_company_id, 'receiver', emitter_company_id, status, ${sign},
      ${s}amount_with_exchange_rate, ${s}(${ownMxn}),
      ${s}(case when currency = 'USD' then amount else 0 end)
    from ${table}`;
}

/**
 * Adds the statement's deltas to invoice_totals in one upsert, in key order (two transactions that change the
 * same companies take the row locks in the same order). An update that leaves every key and amount as it was
 * (a stored quote, a timestamp) adds nothing and locks nothing.
 */
function applyDeltas(union: string): string {
  return upsertSums(
    'invoice_totals',
    ['company_id', 'side', 'status', 'counterpart_id'],
    ['company_id', 'side', 'counterpart_id', 'status'],
    union,
  );
}

/** The count and the three sums a kept-totals table holds per key (upsertSums adds to them). */
export const SUM_COLUMNS = `invoices integer NOT NULL,
    amount_mxn numeric(18,2) NOT NULL,
    amount_own_mxn numeric(18,2) NOT NULL,
    amount_own_usd numeric(18,2) NOT NULL`;

/**
 * Adds signed deltas (`union`: rows of `deltaKeys` then n, mxn, own_mxn, own_usd) to `table`'s count and three
 * sums in one upsert, grouped and ordered by `keys` (the table's primary key), so two transactions take the row
 * locks in the same order. A group whose deltas cancel out adds nothing and locks nothing.
 */
export function upsertSums(
  table: string,
  keys: readonly string[],
  deltaKeys: readonly string[],
  union: string,
): string {
  const key = keys.join(', ');
  return `insert into ${table} as t
      (${key}, invoices, amount_mxn, amount_own_mxn, amount_own_usd)
    select ${key}, sum(n), sum(mxn), sum(own_mxn), sum(own_usd)
    from (${union}) as d (${deltaKeys.join(', ')}, n, mxn, own_mxn, own_usd)
    group by ${key}
    having sum(n) <> 0 or sum(mxn) <> 0 or sum(own_mxn) <> 0 or sum(own_usd) <> 0
    order by ${key}
    on conflict (${key}) do update set
      invoices = t.invoices + excluded.invoices,
      amount_mxn = t.amount_mxn + excluded.amount_mxn,
      amount_own_mxn = t.amount_own_mxn + excluded.amount_own_mxn,
      amount_own_usd = t.amount_own_usd + excluded.amount_own_usd`;
}

/** The trigger function that keeps invoice_totals, with `ownMxn` as what an invoice adds to amount_own_mxn. */
export function totalsFunction(verb: 'CREATE' | 'CREATE OR REPLACE', ownMxn: string): string {
  return `${verb} FUNCTION invoice_totals_apply() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- One function for the three triggers; only the statement's own transition tables are referenced.
    IF TG_OP = 'INSERT' THEN
      ${applyDeltas(deltas('new_rows', 1, ownMxn))};
    ELSIF TG_OP = 'UPDATE' THEN
      ${applyDeltas(`${deltas('new_rows', 1, ownMxn)} union all ${deltas('old_rows', -1, ownMxn)}`)};
    ELSE
      ${applyDeltas(deltas('old_rows', -1, ownMxn))};
    END IF;
    RETURN NULL;
  END
  $$`;
}

/** invoice_totals from the invoices as they are (the table empty). */
export function fillTotals(ownMxn: string): string {
  const rows = amounts(ownMxn);
  return `INSERT INTO invoice_totals
      (company_id, side, status, counterpart_id, invoices, amount_mxn, amount_own_mxn, amount_own_usd)
    SELECT company_id, side, status, counterpart_id, count(*), sum(mxn), sum(own_mxn), sum(own_usd)
    FROM (
      SELECT emitter_company_id, 'emitter', receiver_company_id, status, ${rows} FROM invoices
      UNION ALL
      SELECT receiver_company_id, 'receiver', emitter_company_id, status, ${rows} FROM invoices
    ) AS d (company_id, side, counterpart_id, status, mxn, own_mxn, own_usd)
    GROUP BY company_id, side, status, counterpart_id`;
}

export const scaleIndexes: readonly string[] = [
  // NOTE: on PGlite the extension must also be loaded at PGlite.create (server/db/database.ts). It goes to
  // public, not the current schema: with one schema per test file on a shared PostgreSQL (decision 0004) a file's
  // schema is dropped with CASCADE, which would take the extension from the others. Files migrating at once may
  // race to create it; the loser finds it created.
  `DO $$ BEGIN
    CREATE EXTENSION IF NOT EXISTS pg_trgm WITH SCHEMA public;
  EXCEPTION WHEN unique_violation OR duplicate_object THEN NULL;
  END $$`,
  // The lists without a status filter, newest emission first; INCLUDE lets a period's totals and the status
  // narrowing of the pre-authorization list read the index alone.
  `CREATE INDEX invoices_emitter_date_idx ON invoices (emitter_company_id, date_of_emission DESC, id DESC)
    INCLUDE (status, receiver_company_id, amount_with_exchange_rate)`,
  `CREATE INDEX invoices_receiver_date_idx ON invoices (receiver_company_id, date_of_emission DESC, id DESC)
    INCLUDE (status, emitter_company_id, amount_with_exchange_rate, amount, currency)`,
  // Search anywhere in the text (ILIKE '%…%'): trigram indexes on each side's search text.
  `CREATE INDEX invoices_emitter_search_idx ON invoices USING gin (${INVOICE_SEARCH_TEXT.emitter} public.gin_trgm_ops)`,
  `CREATE INDEX invoices_receiver_search_idx ON invoices USING gin (${INVOICE_SEARCH_TEXT.receiver} public.gin_trgm_ops)`,
  // Count, MXN total, own-currency totals and counterparts of a company's invoices per status, kept by the
  // database in the transaction of every insert, status change or delete: a list's first page reads a few
  // dozen rows here instead of aggregating 100,000 invoices (decision 0039).
  `CREATE TABLE invoice_totals (
    company_id integer NOT NULL REFERENCES companies(id),
    side text NOT NULL CHECK (side IN ('emitter', 'receiver')),
    status smallint NOT NULL,
    counterpart_id integer NOT NULL REFERENCES companies(id),
    ${SUM_COLUMNS},
    PRIMARY KEY (company_id, side, status, counterpart_id)
  )`,
  totalsFunction('CREATE', OWN_MXN_AS_WRITTEN),
  `CREATE TRIGGER invoice_totals_insert AFTER INSERT ON invoices REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION invoice_totals_apply()`,
  `CREATE TRIGGER invoice_totals_update AFTER UPDATE ON invoices
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION invoice_totals_apply()`,
  `CREATE TRIGGER invoice_totals_delete AFTER DELETE ON invoices REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION invoice_totals_apply()`,
  // The invoices already there.
  fillTotals(OWN_MXN_AS_WRITTEN),
];
