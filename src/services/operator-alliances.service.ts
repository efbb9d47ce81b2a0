import { queryOptions } from '@tanstack/react-query';
import { type Infer, integer, string, type } from 'superstruct';
import type { AllianceState } from '../domain/alliance-terms';
import { PagedList } from '../domain/schemas/invoices';
import {
  type AllianceInput,
  type InboxKind,
  InboxPage,
  OperatorAllianceDetail,
  OperatorAlliancePage,
} from '../domain/schemas/operator-alliances';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';

// The operator's alliances and inbox (issue 19, decision 0053). Keys are rooted at ['operator', …].
const BASE = `${INVOICES_API_URL}/operator`;

export interface AllianceListFilters {
  corporate?: number;
  status?: AllianceState;
  page: number;
}

/** GET operator/alliances/. */
export function listOperatorAlliances(filters: AllianceListFilters): Promise<OperatorAlliancePage> {
  const params = new URLSearchParams({ page: String(filters.page) });
  if (filters.corporate !== undefined) params.set('corporate', String(filters.corporate));
  if (filters.status !== undefined) params.set('status', filters.status);
  return request(`${BASE}/alliances/?${params}`, OperatorAlliancePage);
}

/** GET operator/alliances/{id}/: with the price history. */
export function fetchOperatorAlliance(id: number): Promise<OperatorAllianceDetail> {
  return request(`${BASE}/alliances/${id}/`, OperatorAllianceDetail);
}

/** POST operator/alliances/: creates the alliance or changes its price (with the intent's key, when given). */
export function saveOperatorAlliance(
  body: AllianceInput,
  idempotencyKey?: string,
): Promise<OperatorAllianceDetail> {
  return request(`${BASE}/alliances/`, OperatorAllianceDetail, {
    method: 'POST',
    body,
    ...(idempotencyKey ? { idempotencyKey } : {}),
  });
}

/** GET operator/inbox/?kind=. */
export function listInbox(kind: InboxKind, page: number): Promise<InboxPage> {
  return request(`${BASE}/inbox/?kind=${kind}&page=${page}`, InboxPage);
}

/** The corporates the alliance form offers (GET operator/corporates/, owned by the corporates screen). */
const CorporateOption = type({ id: integer(), rfc: string(), name: string() });
const CorporateOptionPage = PagedList(CorporateOption);
export type CorporateOption = Infer<typeof CorporateOption>;

export async function listCorporateOptions(): Promise<CorporateOption[]> {
  const page = await request(`${BASE}/corporates/?page=1`, CorporateOptionPage);
  return page.results;
}

export const operatorAllianceKeys = {
  all: ['operator', 'alliances'] as const,
  list: (filters: AllianceListFilters) => ['operator', 'alliances', 'list', filters] as const,
  detail: (id: number) => ['operator', 'alliances', 'detail', id] as const,
  corporates: ['operator', 'corporates', 'options'] as const,
  inbox: (kind: InboxKind, page: number) => ['operator', 'inbox', kind, page] as const,
};

export const operatorAlliancesQueryOptions = (filters: AllianceListFilters) =>
  queryOptions({
    queryKey: operatorAllianceKeys.list(filters),
    queryFn: () => listOperatorAlliances(filters),
  });

export const operatorAllianceQueryOptions = (id: number) =>
  queryOptions({
    queryKey: operatorAllianceKeys.detail(id),
    queryFn: () => fetchOperatorAlliance(id),
  });

export const corporateOptionsQueryOptions = () =>
  queryOptions({ queryKey: operatorAllianceKeys.corporates, queryFn: listCorporateOptions });

export const inboxQueryOptions = (kind: InboxKind, page: number) =>
  queryOptions({ queryKey: operatorAllianceKeys.inbox(kind, page), queryFn: () => listInbox(kind, page) });
