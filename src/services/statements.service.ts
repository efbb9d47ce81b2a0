import { array, union, unknown, validate } from 'superstruct';
import { XLSX_MEDIA_TYPE } from '../domain/bulk-upload';
import type { Role } from '../domain/schemas/session-user';
import { StatementPage, StatementReportResponse } from '../domain/schemas/statements';
import { type DownloadProgress, readBody } from './advanced-invoices.service';
import { INVOICES_API_URL } from './api-config';
import { ApiError, request, requestFile } from './http';
import { type AllianceFilters, invoiceListQuery } from './providers.service';

// The account statement's calls (spec §7): providers/account/statement/ and corporates/account/statement/,
// GET a page, POST {invoices_ids} for the report (docs/decisions/0037-account-statements.md).

const PATHS: Record<Role, string> = {
  provider: '/providers/account/statement/',
  corporate: '/corporates/account/statement/',
};

const EMPTY_PAGE: StatementPage = { count: 0, next: null, previous: null, results: [] };

/** Spec §7: statement lists treat an array answer as an empty page. */
const StatementPageOrArray = union([StatementPage, array(unknown())]);

/**
 * A page of the role's statement (search, period; the status is not a statement filter). Spec §7: an array
 * answer is empty, and the corporate's statement answers an empty result on failure (a 401 still ends the
 * session in http.ts first).
 */
export async function listStatement(
  role: Role,
  filters: AllianceFilters,
  page: number,
): Promise<StatementPage> {
  const params = new URLSearchParams(invoiceListQuery(filters, page));
  params.delete('status');
  const url = `${INVOICES_API_URL}${PATHS[role]}?${params}`;
  try {
    const body = await request(url, StatementPageOrArray, { allowArray: true });
    return Array.isArray(body) ? EMPTY_PAGE : body;
  } catch (error) {
    if (role !== 'corporate' || (error instanceof ApiError && error.status === 401)) throw error;
    console.warn('corporate statement failed; shown empty (spec §7)', error);
    return EMPTY_PAGE;
  }
}

/**
 * POST …/account/statement/ {invoices_ids}: the XLSX report of the selected rows as a File named by the
 * server (file_name), its base64 body read chunk by chunk so the page can show progress.
 */
export async function downloadStatementReport(
  role: Role,
  invoiceIds: readonly number[],
  onProgress: (progress: DownloadProgress) => void,
): Promise<File> {
  const url = `${INVOICES_API_URL}${PATHS[role]}`;
  const response = await requestFile(url, 'application/json', {
    method: 'POST',
    body: { invoices_ids: invoiceIds },
  });
  let text: string;
  try {
    text = await (await readBody(response, onProgress)).text();
  } catch (error) {
    // The connection dropped mid-body.
    console.warn('report interrupted', error);
    throw new ApiError(0, null);
  }
  const [error, report] = validate(JSON.parse(text) as unknown, StatementReportResponse);
  if (error) throw new ApiError(response.status, null);
  const bytes = Uint8Array.from(atob(report.file_data), (char) => char.charCodeAt(0));
  return new File([bytes], report.file_name, { type: XLSX_MEDIA_TYPE });
}
