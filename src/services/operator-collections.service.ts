import { queryOptions } from '@tanstack/react-query';
import {
  ApplyCreditResult,
  BankStatementResult,
  BuyerCreditList,
  UnidentifiedPage,
  UnidentifiedPayment,
} from '../domain/schemas/bank-statement';
import { INVOICES_API_URL } from './api-config';
import { request, upload } from './http';

// Cobranza of the back office (decision 0067): the bank's statement, the unidentified-payment queue and the
// buyers' saldo a favor, at /api/operator/collections/.

const BASE = `${INVOICES_API_URL}/operator/collections/`;

export const collectionKeys = {
  all: ['operator', 'collections'] as const,
  /** The last statement's answer, kept for the page to show its lines (set by the upload, never fetched; outside
   * `all` so a refresh does not clear it). */
  lastStatement: ['operator', 'collections-last-statement'] as const,
};

export function unidentifiedQueryOptions() {
  return queryOptions({
    queryKey: [...collectionKeys.all, 'unidentified'],
    queryFn: () => request(`${BASE}unidentified/`, UnidentifiedPage),
  });
}

export function creditsQueryOptions() {
  return queryOptions({
    queryKey: [...collectionKeys.all, 'credits'],
    queryFn: () => request(`${BASE}credits/`, BuyerCreditList),
  });
}

/** POST collections/bank-statement/ (multipart file), with its Idempotency-Key. */
export function uploadBankStatement(file: Blob, fileName: string, idempotencyKey: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  return upload(`${BASE}bank-statement/`, BankStatementResult, form, () => undefined, { idempotencyKey });
}

export function assignUnidentified(id: number, invoiceId: number, idempotencyKey: string) {
  return request(`${BASE}unidentified/${id}/assign/`, UnidentifiedPayment, {
    method: 'POST',
    body: { invoice_id: invoiceId },
    idempotencyKey,
  });
}

export function approveUnidentified(id: number, idempotencyKey: string) {
  return request(`${BASE}unidentified/${id}/approve/`, UnidentifiedPayment, {
    method: 'POST',
    body: {},
    idempotencyKey,
  });
}

export function rejectUnidentified(id: number, reason: string) {
  return request(`${BASE}unidentified/${id}/reject/`, UnidentifiedPayment, {
    method: 'POST',
    body: { reason },
  });
}

export function applyCredit(invoiceId: number, amount: string, idempotencyKey: string) {
  return request(`${BASE}credits/apply/`, ApplyCreditResult, {
    method: 'POST',
    body: { invoice_id: invoiceId, amount },
    idempotencyKey,
  });
}
