import { infiniteQueryOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { InvoiceStatus } from '../domain/invoice-status';
import type { Role } from '../domain/schemas/session-user';
import { listAdvancedInvoices } from './advanced-invoices.service';
import { listCorporateSummary, listSupplierRequests } from './corporates.service';
import { boundedPageParams } from './infinite-pages';
import { type AllianceFilters, invoiceEvents, invoiceProof, listAlliances } from './providers.service';

// The sections a provider opens less often load their calls (and their structs) with their first page, not with
// the dashboard's first paint (decision 0033: what loads before the first list is the Lighthouse budget).
const factoringCalls = () => import('./factoring.service');
const sectionCalls = () => import('./provider-sections.service');
const statementCalls = () => import('./statements.service');

// Every cached invoice read, keyed under one root so that one prefix invalidation after any status change
// refreshes every list, the dashboard header's figures and the open audit trail (decision 0018).

/** The root of every invoice query key. */
export const INVOICES_KEY = ['invoices'] as const;

/** The invoice lists a screen can show; each is one server list. */
export type InvoiceListName =
  | 'alliances'
  | 'advanced'
  | 'corporateSummary'
  | 'supplierRequests'
  | 'factoring'
  | 'receivables'
  | 'issuedCfdi'
  | 'receivedCfdi'
  | 'statement';

/** Spec §6: list keys include the user's role, so a corporate switching views never sees provider rows. */
export const invoiceKeys = {
  all: INVOICES_KEY,
  list: (role: Role, list: InvoiceListName, filters: AllianceFilters) =>
    [...INVOICES_KEY, role, list, filters] as const,
  /** The header's figures: the indicators of the unfiltered alliances list. */
  indicators: (role: Role) => [...INVOICES_KEY, role, 'indicators'] as const,
  /** The factoring balance card's figures: the indicators of the unfiltered factoring list. */
  factoringIndicators: (role: Role) => [...INVOICES_KEY, role, 'factoringIndicators'] as const,
  events: (invoiceId: number) => [...INVOICES_KEY, 'events', invoiceId] as const,
  proof: (invoiceId: number) => [...INVOICES_KEY, 'proof', invoiceId] as const,
  /** Know your business: the monthly indicators (computed from the same invoices, so under the same root). */
  knowYourBusiness: (role: Role) => [...INVOICES_KEY, role, 'knowYourBusiness'] as const,
  /** The account statement's first-page indicators (unfiltered), for the header's balance card. */
  statementIndicators: (role: Role) => [...INVOICES_KEY, role, 'statement', 'indicators'] as const,
};

/** The statement's filters carry no status; every list's filters do, so it is always 'all'. */
const UNFILTERED: AllianceFilters = { search: '', periods: [], status: InvoiceStatus.ALL };

// Each list's page call; the statement's path depends on the role (providers/ or corporates/account/statement/).
const LIST_PAGES = {
  alliances: listAlliances,
  advanced: listAdvancedInvoices,
  corporateSummary: listCorporateSummary,
  supplierRequests: listSupplierRequests,
  factoring: async (filters: AllianceFilters, page: number) =>
    (await factoringCalls()).listFactoring(filters, page),
  receivables: async (filters: AllianceFilters, page: number) =>
    (await sectionCalls()).listReceivables(filters, page),
  issuedCfdi: async (filters: AllianceFilters, page: number) =>
    (await sectionCalls()).listIssuedCfdi(filters, page),
  receivedCfdi: async (filters: AllianceFilters, page: number) =>
    (await sectionCalls()).listReceivedCfdi(filters, page),
  statement: async (filters: AllianceFilters, page: number, role: Role) =>
    (await statementCalls()).listStatement(role, filters, page),
} as const satisfies Record<InvoiceListName, unknown>;

/**
 * An invoice list in pages of 25 (spec §9), newest emission first (the server's order), bounded like every
 * infinite list (`boundedPageParams`).
 */
export function invoiceListQueryOptions(role: Role, list: InvoiceListName, filters: AllianceFilters) {
  return infiniteQueryOptions({
    queryKey: invoiceKeys.list(role, list, filters),
    queryFn: ({ pageParam }) => LIST_PAGES[list](filters, pageParam, role),
    ...boundedPageParams,
  });
}

/** The provider's alliances list (Pronto Pago). */
export function alliancesQueryOptions(role: Role, filters: AllianceFilters) {
  return invoiceListQueryOptions(role, 'alliances', filters);
}

/** The dashboard header's summary figures: the first page of the unfiltered alliances list. */
export function headerSummaryQueryOptions(role: Role, enabled: boolean) {
  return queryOptions({
    queryKey: invoiceKeys.indicators(role),
    queryFn: () => listAlliances({ search: '', periods: [], status: InvoiceStatus.ALL }, 1),
    enabled,
  });
}

/**
 * The factoring header's figures and the account's has_factoring, fresh from the server: the first page of the
 * unfiltered factoring list (spec §2 balance card). Under the invoices root, so any status change reads it again.
 */
export function factoringSummaryQueryOptions(role: Role, enabled: boolean) {
  return queryOptions({
    queryKey: invoiceKeys.factoringIndicators(role),
    queryFn: async () => (await factoringCalls()).listFactoring(UNFILTERED, 1),
    enabled,
  });
}

/**
 * The account statement's first-page indicators and has_factoring for the role (provider: the factoring line,
 * credit used and available, SPEI balance; corporate: totals, providers and cut-off dates), unfiltered. Under the
 * `['invoices']` root, so every status change refreshes it.
 */
export function statementIndicatorsQueryOptions(role: Role, enabled = true) {
  return queryOptions({
    queryKey: invoiceKeys.statementIndicators(role),
    queryFn: async () => {
      const first = await (await statementCalls()).listStatement(role, UNFILTERED, 1);
      return { indicators: first.indicators ?? null, hasFactoring: first.has_factoring ?? false };
    },
    enabled,
  });
}

/** Know your business: the monthly indicators, newest month first, in bounded pages of 25 months. */
export function knowYourBusinessQueryOptions(role: Role) {
  return infiniteQueryOptions({
    queryKey: invoiceKeys.knowYourBusiness(role),
    queryFn: async ({ pageParam }) => (await sectionCalls()).knowYourBusinessIndicators(pageParam),
    ...boundedPageParams,
  });
}

/** An invoice's audit trail, oldest step first. */
export function invoiceEventsQueryOptions(invoiceId: number) {
  return queryOptions({
    queryKey: invoiceKeys.events(invoiceId),
    queryFn: () => invoiceEvents(invoiceId),
  });
}

/** Why an invoice's CFDI is trusted (seal, certificate, SAT's answers). */
export function invoiceProofQueryOptions(invoiceId: number) {
  return queryOptions({
    queryKey: invoiceKeys.proof(invoiceId),
    queryFn: () => invoiceProof(invoiceId),
  });
}

/**
 * After any status change: every invoice list of every role, the header's figures and the trails are read
 * again (the ones on screen at once, the others when next shown). One prefix, so a new list needs no entry here.
 */
export function invalidateInvoiceLists(queryClient: QueryClient): Promise<void> {
  return queryClient.invalidateQueries({ queryKey: INVOICES_KEY });
}
