import { queryOptions } from '@tanstack/react-query';
import { Batch, BatchPage, ConfirmationResult } from '../domain/schemas/control-desk';
import { saveBlob } from './advanced-invoices.service';
import { INVOICES_API_URL } from './api-config';
import { request, requestFile, upload } from './http';

// SPEI batches of the back office (decision 0054): GET/POST /api/operator/disbursements/, the layout CSV and
// the bank's result upload. The approved advances to batch are the desk's (deskQueryOptions('approved')).

const BASE = `${INVOICES_API_URL}/operator/disbursements/`;

export const disbursementKeys = {
  all: ['operator', 'disbursements'] as const,
  batch: (id: number) => ['operator', 'disbursements', id] as const,
};

/** A page of the batches, newest first. */
export function batchesQueryOptions(page: number) {
  return queryOptions({
    queryKey: [...disbursementKeys.all, 'page', page],
    queryFn: () => request(page > 1 ? `${BASE}?page=${page}` : BASE, BatchPage),
  });
}

/** One batch with its SPEI orders. */
export function batchQueryOptions(id: number) {
  return queryOptions({
    queryKey: disbursementKeys.batch(id),
    queryFn: () => request(`${BASE}${id}/`, Batch),
  });
}

/** POST disbursements/ {invoice_ids} (tesorería), with its Idempotency-Key. */
export function createBatch(invoiceIds: readonly number[], idempotencyKey: string) {
  return request(BASE, Batch, { method: 'POST', body: { invoice_ids: invoiceIds }, idempotencyKey });
}

/** GET disbursements/{id}/layout.csv, saved under the server's file name (lote-spei-<id>.csv otherwise). */
export async function downloadBatchLayout(id: number): Promise<void> {
  const response = await requestFile(`${BASE}${id}/layout.csv`, 'text/csv');
  const blob = await response.blob();
  const name = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
  saveBlob(blob, name ?? `lote-spei-${id}.csv`);
}

/** POST disbursements/{id}/confirmation/ (multipart file, tesorería), with its Idempotency-Key. */
export function uploadBatchResult(id: number, file: Blob, fileName: string, idempotencyKey: string) {
  const form = new FormData();
  form.append('file', file, fileName);
  // The result files are small (RESULT_FILE_MAX_BYTES): no progress bar.
  return upload(`${BASE}${id}/confirmation/`, ConfirmationResult, form, () => undefined, { idempotencyKey });
}
