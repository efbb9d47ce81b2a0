// Issue 35 (decision 0074): a search's count is exact up to EXACT_COUNT_LIMIT matches; knowing that a word is past
// it must not cost rechecking thousands of rows. invoice_words counts, per company and side, the invoices whose
// search text holds each word; kept by triggers like invoice_totals (migration 005). Not per status: a status
// change (the lifecycle's every step) would then re-split both versions of each row's text, which doubled the
// cost of a batch of status changes; a search with a status filter counts its matches instead (capped).

/**
 * The words of one side's searchable fields as the search finds them: the counterpart's RFC and name and the
 * description, lowercased with the same lower() ILIKE applies, split at every character that is not a letter or
 * digit, each word once per invoice. Every word is therefore a piece of the lowercased search text of
 * INVOICE_SEARCH_TEXT, so an invoice counted under a word is matched by a search of exactly that word: the count is
 * a lower bound of the search's matches (the search also finds the word inside longer ones). Words of 3 to 40
 * characters with a letter: a folio number, the folio fiscal and short particles are left to the trigram index,
 * which finds them selectively anyway.
 */
function wordsOf(fields: string): string {
  return `(select distinct word from regexp_split_to_table(lower(${fields}), '[^[:alnum:]]+') as word
    where length(word) between 3 and 40 and word ~ '[[:alpha:]]')`;
}

const EMITTER_WORDS = (row: string) =>
  wordsOf(`concat_ws(' ', ${row}.receiver_rfc, ${row}.receiver_name, ${row}.description)`);
const RECEIVER_WORDS = (row: string) =>
  wordsOf(`concat_ws(' ', ${row}.emitter_rfc, ${row}.emitter_name, ${row}.description)`);

/** Both sides' words of `rows` (an alias over invoices' columns with a signed `n`) as deltas. */
function deltas(rows: string): string {
  return `select r.emitter_company_id, 'emitter', w.word, r.n
      from ${rows} cross join lateral ${EMITTER_WORDS('r')} as w
    union all
    select r.receiver_company_id, 'receiver', w.word, r.n
      from ${rows} cross join lateral ${RECEIVER_WORDS('r')} as w`;
}

/** Adds the deltas in one upsert, in key order (two transactions take the row locks in the same order). */
function applyDeltas(union: string): string {
  return `insert into invoice_words as t (company_id, side, word, invoices)
    select company_id, side, word, sum(n)
    from (${union}) as d (company_id, side, word, n)
    group by company_id, side, word
    having sum(n) <> 0
    order by company_id, side, word
    on conflict (company_id, side, word) do update set invoices = t.invoices + excluded.invoices`;
}

/** The columns a row's words and key depend on: an update that changes none of them (a status change, a stored
 * quote) changes no count and reads no text. */
export const WORD_KEY = [
  'emitter_company_id',
  'receiver_company_id',
  'emitter_rfc',
  'emitter_name',
  'receiver_rfc',
  'receiver_name',
  'description',
] as const;

/** The statement's rows as one array of (id, `columns`…) records, in id order: compared before and after. */
export const keysOf =
  (columns: readonly string[]) =>
  (table: 'old_rows' | 'new_rows'): string =>
    `(select array_agg((id, ${columns.join(', ')}) order by id) from ${table})`;
const keys = keysOf(WORD_KEY);

/**
 * The trigger function that keeps invoice_words from a statement's transition tables: `apply` adds the deltas
 * `deltas` makes of a row alias, and an update is applied only when `keys` of the old and new rows differ.
 */
export function wordsFunction(
  apply: (union: string) => string,
  deltas: (rows: string) => string,
  keys: (table: 'old_rows' | 'new_rows') => string,
): string {
  return `CREATE FUNCTION invoice_words_apply() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' THEN
      ${apply(deltas('(select *, 1 as n from new_rows) as r'))};
    ELSIF TG_OP = 'UPDATE' THEN
      -- Only when a row's words or what is kept with them changed, which in practice never happens (CFDI text
      -- does not change): one comparison of the statement's keys, with no join, and a batch of status changes
      -- splits no text. Then the old rows go out and the new come in; the unchanged ones cancel in the sums.
      IF ${keys('old_rows')} IS DISTINCT FROM ${keys('new_rows')} THEN
        ${apply(
          `${deltas('(select *, 1 as n from new_rows) as r')}
          union all
          ${deltas('(select *, -1 as n from old_rows) as r')}`,
        )};
      END IF;
    ELSE
      ${apply(deltas('(select *, -1 as n from old_rows) as r'))};
    END IF;
    RETURN NULL;
  END
  $$`;
}

/** The statement triggers that run invoice_words_apply on every insert, update and delete of invoices. */
export const WORDS_TRIGGERS: readonly string[] = [
  `CREATE TRIGGER invoice_words_insert AFTER INSERT ON invoices REFERENCING NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION invoice_words_apply()`,
  `CREATE TRIGGER invoice_words_update AFTER UPDATE ON invoices
    REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
    FOR EACH STATEMENT EXECUTE FUNCTION invoice_words_apply()`,
  `CREATE TRIGGER invoice_words_delete AFTER DELETE ON invoices REFERENCING OLD TABLE AS old_rows
    FOR EACH STATEMENT EXECUTE FUNCTION invoice_words_apply()`,
];

export const searchWords: readonly string[] = [
  `CREATE TABLE invoice_words (
    company_id integer NOT NULL REFERENCES companies(id),
    side text NOT NULL CHECK (side IN ('emitter', 'receiver')),
    word text NOT NULL,
    invoices integer NOT NULL,
    PRIMARY KEY (company_id, side, word)
  )`,
  wordsFunction(applyDeltas, deltas, keys),
  ...WORDS_TRIGGERS,
  // The invoices already there.
  applyDeltas(deltas('(select *, 1 as n from invoices) as r')),
];
