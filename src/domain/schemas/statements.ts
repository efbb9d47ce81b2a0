import { array, enums, type Infer, integer, string, type } from 'superstruct';
import { MAX_REPORT_INVOICES, MOVEMENT_KINDS, MOVEMENT_STATUSES, STATEMENT_MESSAGES } from '../statements';
import { isoDate, moneyAmount } from './common';
import { batchOf, payload } from './fields';
import { Invoice, PagedList } from './invoices';

// The account statement's calls (spec §3, §7: GET and POST providers/account/statement/ and
// corporates/account/statement/; docs/decisions/0037-account-statements.md).

/**
 * One money movement of a statement row, oldest first: `amount` in MXN ('1234.56'); `status` done once the
 * money moved, pending while it is due (an instalment before it is paid, a deposit in process).
 */
export const StatementMovement = type({
  date: isoDate,
  kind: enums(MOVEMENT_KINDS),
  /** Spanish, e.g. 'Parcialidad 2 de 3'. */
  concept: string(),
  amount: moneyAmount,
  status: enums(MOVEMENT_STATUSES),
});
export type StatementMovement = Infer<typeof StatementMovement>;

/** A statement row: the list's Invoice (with factoring_request_id when factored) plus its movements. */
export const StatementRow = type({
  ...Invoice.schema,
  movements: array(StatementMovement),
});
export type StatementRow = Infer<typeof StatementRow>;

/**
 * A page of the statement (page_size 25). The provider's first page carries indicators {total, count,
 * suppliers_customers, credit_line, credit_used, available_credit, used_credit_percentage, spei_balance,
 * payment_date, total_by_date, has_cost_center} and has_factoring; the corporate's {total, count, providers,
 * suppliers_customers, cut_off_dates, payment_date, total_by_date, spei_balance, has_cost_center} and, with a
 * credit programme, its utilisation. What each means: decision 0065 and GET /api/openapi.json.
 */
export const StatementPage = PagedList(StatementRow);
export type StatementPage = Infer<typeof StatementPage>;

/** POST …/account/statement/: the report of 1 to MAX_REPORT_INVOICES selected invoices (repeated ids count once). */
export const StatementReportRequest = payload({
  invoices_ids: batchOf(integer(), MAX_REPORT_INVOICES, {
    empty: STATEMENT_MESSAGES.empty,
    tooMany: STATEMENT_MESSAGES.tooMany,
  }),
});
export type StatementReportRequest = Infer<typeof StatementReportRequest>;

/** The report comes back as a base64 file to download (an XLSX). */
export const StatementReportResponse = type({ file_data: string(), file_name: string() });
export type StatementReportResponse = Infer<typeof StatementReportResponse>;
