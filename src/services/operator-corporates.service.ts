import { type QueryClient, queryOptions } from '@tanstack/react-query';
import { type CorporateDocumentKind, type OnboardingState, PDF_MEDIA_TYPE } from '../domain/corporate-file';
import { EconomicGroupAnswer, type EconomicGroupBody } from '../domain/schemas/exposure';
import {
  CorporateCreated,
  CorporateDetail,
  CorporatePage,
  type CreateCorporateBody,
  DecisionRecorded,
  type DocumentDecisionBody,
  OnboardingStateAnswer,
} from '../domain/schemas/operator-corporates';
import { INVOICES_API_URL } from './api-config';
import { request, requestFile, type UploadProgress, upload } from './http';

// The corporates' back office calls (issue 19, decision 0051): /api/operator/corporates/…

const BASE = `${INVOICES_API_URL}/operator/corporates/`;

export interface CorporateListSearch {
  search?: string;
  state?: OnboardingState;
  page?: number;
}

/** Keys rooted at ['operator', 'corporates'], invalidated by prefix after every change. */
export const corporateKeys = {
  all: ['operator', 'corporates'] as const,
  list: (search: CorporateListSearch) => ['operator', 'corporates', 'list', search] as const,
  detail: (id: number) => ['operator', 'corporates', 'detail', id] as const,
};

export function corporatesQueryOptions(search: CorporateListSearch) {
  return queryOptions({
    queryKey: corporateKeys.list(search),
    queryFn: () => {
      const params = new URLSearchParams();
      if (search.search) params.set('search', search.search);
      if (search.state) params.set('state', search.state);
      if (search.page && search.page > 1) params.set('page', String(search.page));
      const query = params.toString();
      return request(`${BASE}${query ? `?${query}` : ''}`, CorporatePage);
    },
  });
}

export function corporateQueryOptions(id: number) {
  return queryOptions({
    queryKey: corporateKeys.detail(id),
    queryFn: () => request(`${BASE}${id}/`, CorporateDetail),
  });
}

export function createCorporate(body: CreateCorporateBody) {
  return request(BASE, CorporateCreated, { method: 'POST', body });
}

export function uploadCorporateDocument(
  corporateId: number,
  input: { kind: CorporateDocumentKind; file: File; clabe?: string },
  onProgress: UploadProgress = () => {},
) {
  const form = new FormData();
  form.set('kind', input.kind);
  if (input.clabe !== undefined) form.set('clabe', input.clabe);
  form.set('file', input.file);
  return upload(`${BASE}${corporateId}/documents/`, OnboardingStateAnswer, form, onProgress);
}

export function decideCorporateDocument(corporateId: number, documentId: number, body: DocumentDecisionBody) {
  return request(`${BASE}${corporateId}/documents/${documentId}/decision/`, DecisionRecorded, {
    method: 'POST',
    body,
  });
}

export function activateCorporate(corporateId: number) {
  return request(`${BASE}${corporateId}/activate/`, OnboardingStateAnswer, { method: 'POST' });
}

export function rejectCorporate(corporateId: number, reason: string) {
  return request(`${BASE}${corporateId}/reject/`, OnboardingStateAnswer, {
    method: 'POST',
    body: { reason },
  });
}

export function suspendCorporate(corporateId: number, reason: string) {
  return request(`${BASE}${corporateId}/suspend/`, OnboardingStateAnswer, {
    method: 'POST',
    body: { reason },
  });
}

/** The corporate's economic group (null or '' takes it away); the server answers the name it kept. */
export function setEconomicGroup(corporateId: number, body: EconomicGroupBody) {
  return request(`${BASE}${corporateId}/economic-group/`, EconomicGroupAnswer, { method: 'POST', body });
}

export function reactivateCorporate(corporateId: number) {
  return request(`${BASE}${corporateId}/reactivate/`, OnboardingStateAnswer, { method: 'POST' });
}

/** The document's PDF with the bearer token, as a Blob the viewer shows through a blob: URL. */
export async function fetchCorporateDocumentPdf(corporateId: number, documentId: number): Promise<Blob> {
  const response = await requestFile(`${BASE}${corporateId}/documents/${documentId}/file/`, PDF_MEDIA_TYPE);
  return new Blob([await response.arrayBuffer()], { type: PDF_MEDIA_TYPE });
}

const PDF_QUERY = 'corporate-pdf';

/**
 * The open document's PDF as a blob: URL (an <iframe src> cannot send the bearer token). Dropped from the cache
 * as soon as no viewer shows it, and its URL revoked then (`revokePdfUrlsOnRemoval`).
 */
export function corporatePdfQueryOptions(corporateId: number, documentId: number | null) {
  return queryOptions({
    queryKey: ['operator', PDF_QUERY, corporateId, documentId] as const,
    queryFn: async () =>
      URL.createObjectURL(await fetchCorporateDocumentPdf(corporateId, documentId as number)),
    enabled: documentId !== null,
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Revokes a PDF's blob: URL when its query leaves the cache (the viewer closed); returns the unsubscribe. */
export function revokePdfUrlsOnRemoval(queryClient: QueryClient): () => void {
  return queryClient.getQueryCache().subscribe((event) => {
    const url = event.query.state.data;
    if (event.type === 'removed' && event.query.queryKey[1] === PDF_QUERY && typeof url === 'string')
      URL.revokeObjectURL(url);
  });
}
