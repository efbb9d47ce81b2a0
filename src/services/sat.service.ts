import { SatLinkStatus, type TaxLink, TaxLinkSent } from '../domain/schemas/session';
import { ACCOUNTS_API_URL } from './api-config';
import { request } from './http';

/** POST /api/accounts/ciec/ {rfc, ciec}: the link becomes SENT (spec §7). */
export function submitTaxLink(link: TaxLink): Promise<TaxLinkSent> {
  return request(`${ACCOUNTS_API_URL}/ciec/`, TaxLinkSent, { method: 'POST', body: link });
}

/** GET /api/accounts/ciec/: the caller's company link status and RFC. */
export function satLinkStatus(): Promise<SatLinkStatus> {
  return request(`${ACCOUNTS_API_URL}/ciec/`, SatLinkStatus);
}
