import { type InvoicePage, KnowYourBusinessPage, PAGE_SIZE } from '../domain/schemas/invoices';
import { type AllianceRequest, PlainMessageResponse, type Referral } from '../domain/schemas/session';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';
import { type AllianceFilters, InvoicePageOrArray, invoiceListQuery } from './providers.service';

// The provider sections besides Pronto Pago (decision 0038): receivables, know your business, referrals.

const EMPTY_PAGE = { count: 0, next: null, previous: null, results: [] };

async function invoicePageAt(url: string): Promise<InvoicePage> {
  const body = await request(url, InvoicePageOrArray, { allowArray: true });
  // Spec §7: an array answer is an empty page.
  return Array.isArray(body) ? EMPTY_PAGE : body;
}

/** GET providers/accounts-receivable/: the invoices still owed, with search and period (no status filter). */
export function listReceivables(filters: AllianceFilters, page: number): Promise<InvoicePage> {
  return invoicePageAt(
    `${INVOICES_API_URL}/providers/accounts-receivable/?${invoiceListQuery(filters, page)}`,
  );
}

/** The CFDI the company issued (income) or received (expense), with the list filters. */
export function listIssuedCfdi(filters: AllianceFilters, page: number): Promise<InvoicePage> {
  return invoicePageAt(
    `${INVOICES_API_URL}/providers/know-your-business/?type=income_invoices&${invoiceListQuery(filters, page)}`,
  );
}

export function listReceivedCfdi(filters: AllianceFilters, page: number): Promise<InvoicePage> {
  return invoicePageAt(
    `${INVOICES_API_URL}/providers/know-your-business/?type=expense_invoices&${invoiceListQuery(filters, page)}`,
  );
}

/** The monthly indicators, newest month first, 25 months a page. */
export function knowYourBusinessIndicators(page: number): Promise<KnowYourBusinessPage> {
  const params = new URLSearchParams({
    type: 'resume_indicators',
    page: String(page),
    page_size: String(PAGE_SIZE),
  });
  return request(`${INVOICES_API_URL}/providers/know-your-business/?${params}`, KnowYourBusinessPage);
}

/** POST providers/refer-customer/: the server's message is what the page shows (spec §8). */
export function referCustomer(referral: Referral): Promise<PlainMessageResponse> {
  return request(`${INVOICES_API_URL}/providers/refer-customer/`, PlainMessageResponse, {
    method: 'POST',
    body: referral,
  });
}

/** POST providers/alliances/: ask Flujo for an alliance with one of the provider's clients. */
export function requestAlliance(body: AllianceRequest): Promise<PlainMessageResponse> {
  return request(`${INVOICES_API_URL}/providers/alliances/`, PlainMessageResponse, { method: 'POST', body });
}
