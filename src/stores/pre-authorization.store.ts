import {
  type PreAuthorizationWork,
  type PreAuthorizedInvoice,
  preAuthorizationTimeLeft,
} from '../domain/pre-authorization';
import { PRE_AUTHORIZATION_STORE_KEY } from './storage-keys';

// Spec §4 "pre-authorization store": the selected invoices, their payment dates and the time of the last change,
// in localStorage, so a reload (or the quotation page) within 5 minutes finds the work. The machine decides
// when to save and clear; this module only reads and writes.

function isStoredInvoice(value: unknown): value is PreAuthorizedInvoice {
  const item = value as Partial<PreAuthorizedInvoice> | null;
  return (
    typeof item?.id === 'number' &&
    typeof item.folio === 'string' &&
    (item.emissionDate === null || typeof item.emissionDate === 'string') &&
    (item.paymentDate === null || typeof item.paymentDate === 'string')
  );
}

/** The stored work, or an empty one when there is none, it is unreadable or older than 5 minutes (cleared). */
export function readPreAuthorization(now: number = Date.now()): PreAuthorizationWork {
  const empty: PreAuthorizationWork = { invoices: [], savedAt: now };
  const text = localStorage.getItem(PRE_AUTHORIZATION_STORE_KEY);
  if (text === null) return empty;
  try {
    const stored = JSON.parse(text) as Partial<PreAuthorizationWork> | null;
    if (
      typeof stored?.savedAt === 'number' &&
      Array.isArray(stored.invoices) &&
      stored.invoices.every(isStoredInvoice) &&
      preAuthorizationTimeLeft(stored.savedAt, now) > 0
    ) {
      return { invoices: stored.invoices, savedAt: stored.savedAt };
    }
  } catch {
    // Unreadable: treated as absent and cleared below.
  }
  clearPreAuthorization();
  return empty;
}

/** Saves the work; an empty selection clears the store. */
export function savePreAuthorization(work: PreAuthorizationWork): void {
  if (work.invoices.length === 0) clearPreAuthorization();
  else localStorage.setItem(PRE_AUTHORIZATION_STORE_KEY, JSON.stringify(work));
}

export function clearPreAuthorization(): void {
  localStorage.removeItem(PRE_AUTHORIZATION_STORE_KEY);
}
