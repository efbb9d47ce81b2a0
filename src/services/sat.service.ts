import type { SatLinkStatus, TaxLink } from '../domain/schemas/session';
import { ACCOUNTS_API_URL } from './api-config';
import { request } from './http';

/** POST /api/accounts/ciec/ {rfc, ciec}: the link becomes SENT (spec §7; the answer is not read). */
export function submitTaxLink(link: TaxLink): Promise<unknown> {
  return request<unknown>(`${ACCOUNTS_API_URL}/ciec/`, { method: 'POST', body: link });
}

/** GET /api/accounts/ciec/: the caller's company link status and RFC. */
export function satLinkStatus(): Promise<SatLinkStatus> {
  return request<SatLinkStatus>(`${ACCOUNTS_API_URL}/ciec/`);
}
