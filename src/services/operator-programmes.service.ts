import { queryOptions } from '@tanstack/react-query';
import { array, type Infer, nullable, number, string, type } from 'superstruct';
import {
  CollectionResponse,
  ProgrammeDetail,
  ProgrammePage,
  ProgrammeSummary,
  type ProposeProgrammeBody,
  type RecordCollectionBody,
} from '../domain/schemas/credit-programmes';
import { INVOICES_API_URL } from './api-config';
import { request } from './http';

// The operators' credit-programme calls (issue 19, decision 0052). Keys are rooted at ['operator', 'programmes'].

const BASE = `${INVOICES_API_URL}/operator/programmes/`;

/** The largest page the list asks for: a programme per corporate, a few hundred at most. */
const PAGE_SIZE = 200;

export const programmesQueryOptions = queryOptions({
  queryKey: ['operator', 'programmes', 'list'],
  queryFn: () => request(`${BASE}?page_size=${PAGE_SIZE}`, ProgrammePage),
});

export function programmeDetailQueryOptions(programmeId: number) {
  return queryOptions({
    queryKey: ['operator', 'programmes', 'detail', programmeId],
    queryFn: () => request(`${BASE}${programmeId}/`, ProgrammeDetail),
  });
}

// What the proposal dialog needs of GET operator/corporates/ (helper B's list; a newer answer may add fields).
const CorporateOptionPage = type({
  results: array(type({ id: number(), name: string(), rfc: nullable(string()) })),
});
export type CorporateOptionPage = Infer<typeof CorporateOptionPage>;

// NOTE: GET operator/corporates/ serves at most 100 per page (operator-corporates.routes.ts).
const CORPORATES_PAGE_SIZE = 100;

export const corporateOptionsQueryOptions = queryOptions({
  queryKey: ['operator', 'corporates', 'options'],
  queryFn: async () =>
    (
      await request(
        `${INVOICES_API_URL}/operator/corporates/?page_size=${CORPORATES_PAGE_SIZE}`,
        CorporateOptionPage,
      )
    ).results,
});

export function proposeProgramme(body: ProposeProgrammeBody): Promise<ProgrammeSummary> {
  return request(BASE, ProgrammeSummary, { method: 'POST', body });
}

export function approveProgramme(programmeId: number, idempotencyKey: string): Promise<ProgrammeSummary> {
  return request(`${BASE}${programmeId}/approve/`, ProgrammeSummary, { method: 'POST', idempotencyKey });
}

export function freezeProgramme(programmeId: number, reason: string): Promise<ProgrammeSummary> {
  return request(`${BASE}${programmeId}/freeze/`, ProgrammeSummary, { method: 'POST', body: { reason } });
}

export function unfreezeProgramme(programmeId: number, reason: string): Promise<ProgrammeSummary> {
  return request(`${BASE}${programmeId}/unfreeze/`, ProgrammeSummary, { method: 'POST', body: { reason } });
}

/** POST operator/collections/ (tesorería): the corporate's payment of an advanced invoice; money, so keyed. */
export function recordCollection(
  body: RecordCollectionBody,
  idempotencyKey: string,
): Promise<CollectionResponse> {
  return request(`${INVOICES_API_URL}/operator/collections/`, CollectionResponse, {
    method: 'POST',
    body,
    idempotencyKey,
  });
}
