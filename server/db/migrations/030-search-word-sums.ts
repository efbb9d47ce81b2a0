// Issue 35 (decision 0075): a one-word search's count, sums and counterparts come from kept rows, exact, at any
// size. invoice_words (migration 029) knew a word's count per company and side, a lower bound; it now also knows
// it per counterpart with the invoices' sums, holds every word of three characters or more (a longer word than
// 200 characters is marked instead), and the folio fields get a trigram index of their own, so that a search
// which is one word is answered from the words plus the few invoices whose folio fields alone hold it.
import { FOLIO_TEXT, SEARCH_TEXT_SEPARATOR, SUM_COLUMNS, upsertSums } from './005-scale-indexes';
import { OWN_MXN_PESO_VALUE } from './020-peso-value-totals';
import { keysOf, WORD_KEY, WORDS_TRIGGERS, wordsFunction } from './029-search-words';

/** The longest word kept as itself; an invoice with a longer one adds to LONG_WORD_MARK instead. */
export const LONGEST_KEPT_WORD = 200;
/**
 * The word an invoice holding a word longer than LONGEST_KEPT_WORD is counted under. It is the search text's
 * separator, which no word and no search of the kept path can hold, so it only says "this company has such words":
 * a search could be inside one of them, so its count is not taken from the kept words.
 */
export const LONG_WORD_MARK = SEARCH_TEXT_SEPARATOR;

/**
 * The text of a side's searchable fields other than the folio fields: the counterpart's RFC and name and the
 * description (INVOICE_SEARCH_TEXT without FOLIO_TEXT). `row` qualifies the columns ('' for none).
 */
export function wordText(side: 'emitter' | 'receiver', row = ''): string {
  const counterpart = side === 'emitter' ? 'receiver' : 'emitter';
  return `concat_ws(E'\\x1f', ${row}${counterpart}_rfc, ${row}${counterpart}_name, ${row}description)`;
}

/**
 * The words of a side's word text as a search finds them: lowercased with the lower() ILIKE applies, split at every
 * character that is not a letter or digit, each once per invoice, those of 3 characters or more with a letter.
 * A search of letters and digits with a letter matches the word text exactly when it is inside one of these
 * words: a match cannot cross a character that is not a letter or digit, and a piece with a letter is inside a word
 * with a letter. Shorter words cannot hold a search of three characters, the shortest the kept path answers.
 */
function wordsOf(text: string): string {
  return `(select distinct case when length(word) > ${LONGEST_KEPT_WORD} then E'\\x1f' else word end as word
    from regexp_split_to_table(lower(${text}), '[^[:alnum:]]+') as word
    where length(word) >= 3 and word ~ '[[:alpha:]]')`;
}

/** Both sides' words of `rows` (an alias over invoices' columns with a signed `n`) as deltas with their sums. */
function deltas(rows: string): string {
  const sums = `r.n, r.n * r.amount_with_exchange_rate, r.n * (${OWN_MXN_PESO_VALUE}),
      r.n * (case when r.currency = 'USD' then r.amount else 0 end)`;
  return `select r.emitter_company_id, 'emitter', w.word, r.receiver_company_id, ${sums}
      from ${rows} cross join lateral ${wordsOf(wordText('emitter', 'r.'))} as w
    union all
    select r.receiver_company_id, 'receiver', w.word, r.emitter_company_id, ${sums}
      from ${rows} cross join lateral ${wordsOf(wordText('receiver', 'r.'))} as w`;
}

/** Adds the deltas to the word rows in one upsert, in key order. */
function applyDeltas(union: string): string {
  const keys = ['company_id', 'side', 'word', 'counterpart_id'];
  return upsertSums('invoice_words', keys, keys, union);
}

/** The statement's rows keyed by what their words, counterparts and sums depend on: a status change is none. */
const keys = keysOf([...WORD_KEY, 'amount', 'currency', 'amount_with_exchange_rate']);

/** The folio fields of INVOICE_SEARCH_TEXT (the same expression, or the planner would not use the index). */
const FOLIO_INDEX = `CREATE INDEX invoices_folio_search_idx ON invoices USING gin ((${FOLIO_TEXT}) public.gin_trgm_ops)`;

export const searchWordSums: readonly string[] = [
  'DROP TRIGGER invoice_words_insert ON invoices',
  'DROP TRIGGER invoice_words_update ON invoices',
  'DROP TRIGGER invoice_words_delete ON invoices',
  'DROP FUNCTION invoice_words_apply()',
  'DROP TABLE invoice_words',
  `CREATE TABLE invoice_words (
    company_id integer NOT NULL REFERENCES companies(id),
    side text NOT NULL CHECK (side IN ('emitter', 'receiver')),
    word text NOT NULL,
    counterpart_id integer NOT NULL REFERENCES companies(id),
    ${SUM_COLUMNS},
    PRIMARY KEY (company_id, side, word, counterpart_id)
  )`,
  wordsFunction(applyDeltas, deltas, keys),
  ...WORDS_TRIGGERS,
  // The invoices already there.
  applyDeltas(deltas('(select *, 1 as n from invoices) as r')),
  FOLIO_INDEX,
];
