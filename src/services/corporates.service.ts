import dayjs from 'dayjs';
import { templateFileName, XLSX_MEDIA_TYPE } from '../domain/bulk-upload';
import { ISO_DATE_FORMAT } from '../domain/calendar-date';
import type { InvoiceStatusFilter } from '../domain/invoice-status';
import type { PeriodCode } from '../domain/period';
import {
  AcceptedQuotationResponse,
  CorporateQuotation,
  CorporateSummaryPage,
  PreApprovedQuotationResponse,
  PreAuthorizationPage,
  type QuotationLinesBody,
  QuotationOutcomeResponse,
  type RejectQuotationBody,
  TemplateUploadResult,
  ZipBulkUploadResponse,
} from '../domain/schemas/corporates';
import { InvoicePage, PAGE_SIZE } from '../domain/schemas/invoices';
import {
  AuthorizeRejectResponse,
  type AuthorizeRequestsBody,
  QUOTATION_PATHS,
  type RejectRequestsBody,
} from '../domain/schemas/quotations';
import { saveBlob } from './advanced-invoices.service';
import { INVOICES_API_URL } from './api-config';
import { request, requestFile, type UploadProgress, upload } from './http';

// The corporate buyer's calls (spec §7 "Corporate", issue 13). Every answer is checked against its struct of
// src/domain/schemas/corporates.ts; the POSTs that change invoices take an Idempotency-Key, so a retried click
// never acts twice.

/** Filters of the corporate summary (/resumen-de-facturas/); they live in the URL. */
export interface CorporateSummaryFilters {
  search: string;
  /** Empty: every month. */
  periods: readonly PeriodCode[];
  /** One of CORPORATE_STATUS_FILTER_OPTIONS (no En trámite, no Factoraje). */
  status: InvoiceStatusFilter;
}

function pageParams(page: number, search: string): URLSearchParams {
  const params = new URLSearchParams({ page: String(page), page_size: String(PAGE_SIZE) });
  if (search) params.set('search', search);
  return params;
}

/** A page of the invoices the corporate received; the first page carries the three indicators. */
export function listCorporateSummary(
  filters: CorporateSummaryFilters,
  page: number,
): Promise<CorporateSummaryPage> {
  const params = pageParams(page, filters.search);
  if (filters.periods.length > 0) params.set('period', filters.periods.join(','));
  params.set('status', String(filters.status));
  return request(`${INVOICES_API_URL}/corporates/summary/?${params}`, CorporateSummaryPage);
}

/** A page of the received invoices the corporate may still pre-authorize (Por Autorizar, Solicitado, Rechazada). */
export function listPreAuthorization(search: string, page: number): Promise<PreAuthorizationPage> {
  return request(
    `${INVOICES_API_URL}/corporates/pre-authorization/?${pageParams(page, search)}`,
    PreAuthorizationPage,
  );
}

/** The quote of the selected invoices and dates; writes nothing. */
export function quoteInvoices(lines: QuotationLinesBody): Promise<CorporateQuotation> {
  return request(`${INVOICES_API_URL}${QUOTATION_PATHS.quote}`, CorporateQuotation, {
    method: 'POST',
    body: lines,
  });
}

/** The provider absorbs the cost: every invoice → Autorizada with its payment date. */
export function preApproveQuotation(
  lines: QuotationLinesBody,
  idempotencyKey: string,
): Promise<PreApprovedQuotationResponse> {
  return request(`${INVOICES_API_URL}${QUOTATION_PATHS.preApprove}`, PreApprovedQuotationResponse, {
    method: 'POST',
    body: lines,
    idempotencyKey,
  });
}

/** The buyer absorbs the cost: every invoice → Autorizada at no cost to its provider; answers the resume. */
export function acceptQuotation(
  lines: QuotationLinesBody,
  idempotencyKey: string,
): Promise<AcceptedQuotationResponse> {
  return request(`${INVOICES_API_URL}${QUOTATION_PATHS.accept}`, AcceptedQuotationResponse, {
    method: 'POST',
    body: lines,
    idempotencyKey,
  });
}

/** 'Pagar a Proveedores': the accepted invoices → En trámite, funded by the buyer (decision 0028). */
export function payProviders(
  lines: QuotationLinesBody,
  idempotencyKey: string,
): Promise<QuotationOutcomeResponse> {
  return request(`${INVOICES_API_URL}${QUOTATION_PATHS.payProviders}`, QuotationOutcomeResponse, {
    method: 'POST',
    body: lines,
    idempotencyKey,
  });
}

/** 'Rechazar Cotización': the invoices of a quotation the buyer accepted as payer → Rechazada. */
export function rejectQuotation(
  items: RejectQuotationBody,
  idempotencyKey: string,
): Promise<QuotationOutcomeResponse> {
  return request(`${INVOICES_API_URL}${QUOTATION_PATHS.reject}`, QuotationOutcomeResponse, {
    method: 'POST',
    body: items,
    idempotencyKey,
  });
}

/** Filters of the suppliers' requests (/solicitudes/): every request is Solicitado, so no status. */
export type SupplierRequestFilters = Pick<CorporateSummaryFilters, 'search' | 'periods'>;

/** A page of the invoices the corporate's suppliers asked it to authorize (Solicitado). */
export function listSupplierRequests(filters: SupplierRequestFilters, page: number): Promise<InvoicePage> {
  const params = pageParams(page, filters.search);
  if (filters.periods.length > 0) params.set('period', filters.periods.join(','));
  return request(`${INVOICES_API_URL}/corporates/manually-requests/?${params}`, InvoicePage);
}

/** Authorizes requested invoices, each with its payment date: Solicitado → Autorizada. */
export function authorizeSupplierRequests(
  lines: AuthorizeRequestsBody,
  idempotencyKey: string,
): Promise<AuthorizeRejectResponse> {
  return request(`${INVOICES_API_URL}/corporates/manually-requests/authorize/`, AuthorizeRejectResponse, {
    method: 'POST',
    body: lines,
    idempotencyKey,
  });
}

/** Rejects requested invoices, with an optional reason: Solicitado → Rechazada. */
export function rejectSupplierRequests(
  items: RejectRequestsBody,
  idempotencyKey: string,
): Promise<AuthorizeRejectResponse> {
  return request(`${INVOICES_API_URL}/corporates/manually-requests/reject/`, AuthorizeRejectResponse, {
    method: 'POST',
    body: items,
    idempotencyKey,
  });
}

// Bulk authorization by file (issue 14, docs/decisions/0032-bulk-uploads.md and 0034).

/** GET corporates/template/: the XLSX of the invoices the corporate may pre-authorize, saved as a file. */
export async function downloadTemplate(): Promise<void> {
  const response = await requestFile(`${INVOICES_API_URL}/corporates/template/`, XLSX_MEDIA_TYPE);
  const blob = await response.blob();
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  saveBlob(blob, name ?? templateFileName(dayjs().format(ISO_DATE_FORMAT)));
}

/** POST corporates/upload/zip/ (multipart zip_file, payment_date 'YYYY-MM-DD'): the lines to quote. */
export function uploadZip(
  file: Blob,
  fileName: string,
  paymentDate: string,
  onProgress: UploadProgress,
): Promise<ZipBulkUploadResponse> {
  const form = new FormData();
  form.append('payment_date', paymentDate);
  form.append('zip_file', file, fileName);
  return upload(`${INVOICES_API_URL}/corporates/upload/zip/`, ZipBulkUploadResponse, form, onProgress, {
    allowArray: true,
  });
}

/** POST corporates/upload/excel/ (multipart file): the processed rows, or every row's error. */
export function uploadTemplate(
  file: Blob,
  fileName: string,
  onProgress: UploadProgress,
): Promise<TemplateUploadResult> {
  const form = new FormData();
  form.append('file', file, fileName);
  return upload(`${INVOICES_API_URL}/corporates/upload/excel/`, TemplateUploadResult, form, onProgress);
}
