import { array, union, unknown } from 'superstruct';
import type { InvoiceStatusFilter } from '../domain/invoice-status';
import type { PeriodCode } from '../domain/period';
import { CfdiProof } from '../domain/schemas/cfdi-proof';
import {
  ForwardPaymentQuote,
  type InvoiceEvent,
  InvoiceEventList,
  InvoicePage,
  MessageResponse,
  PAGE_SIZE,
} from '../domain/schemas/invoices';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';

/** Filters of the provider's pronto-pago list (spec §2, §7); they live in the URL. */
export interface AllianceFilters {
  search: string;
  /** Empty: every month (the spec's default, all months selected). */
  periods: readonly PeriodCode[];
  status: InvoiceStatusFilter;
}

/** The query string of a provider invoice list (alliances, advanced invoices): filters and a 25-row page. */
export function invoiceListQuery(filters: AllianceFilters, page: number): string {
  const params = new URLSearchParams({ page: String(page), page_size: String(PAGE_SIZE) });
  if (filters.search) params.set('search', filters.search);
  if (filters.periods.length > 0) params.set('period', filters.periods.join(','));
  params.set('status', String(filters.status));
  return params.toString();
}

/** A list answer: a page, or (spec §3) an array, which means an empty page. */
export const InvoicePageOrArray = union([InvoicePage, array(unknown())]);

/** A page of the provider's invoices; spec §3: an array answer is an empty page. */
export async function listAlliances(filters: AllianceFilters, page: number): Promise<InvoicePage> {
  const body = await request(
    `${INVOICES_API_URL}/providers/alliances/?${invoiceListQuery(filters, page)}`,
    InvoicePageOrArray,
    { allowArray: true },
  );
  if (Array.isArray(body)) return { count: 0, next: null, previous: null, results: [] };
  return body;
}

/** AVAILABLE → PENDING: ask the customer to authorize the invoice. */
export function requestPayment(invoiceId: number, idempotencyKey: string): Promise<MessageResponse> {
  return request(`${INVOICES_API_URL}/providers/request-payment/`, MessageResponse, {
    method: 'POST',
    body: { id_request_factoring: invoiceId },
    idempotencyKey,
  });
}

export function forwardPaymentQuote(invoiceId: number): Promise<ForwardPaymentQuote> {
  return request(`${INVOICES_API_URL}/providers/forward-payment/${invoiceId}/`, ForwardPaymentQuote);
}

/** APPROVED → PROCESS: confirm the advance. */
export function approveForwardPayment(invoiceId: number, idempotencyKey: string): Promise<MessageResponse> {
  return request(`${INVOICES_API_URL}/providers/forward-payment/`, MessageResponse, {
    method: 'POST',
    body: { id_execute_factoring: invoiceId },
    idempotencyKey,
  });
}

/** Why the invoice's CFDI is trusted: its seal's certificate and SAT's answers (GET /api/invoices/<id>/proof/). */
export function invoiceProof(invoiceId: number): Promise<CfdiProof> {
  return request(`${INVOICES_API_URL}/invoices/${invoiceId}/proof/`, CfdiProof);
}

export function invoiceEvents(invoiceId: number): Promise<InvoiceEvent[]> {
  return request(`${INVOICES_API_URL}/invoices/${invoiceId}/events/`, InvoiceEventList, { allowArray: true });
}
