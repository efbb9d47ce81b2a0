import type { InvoicePage } from '../domain/schemas/invoices';
import { INVOICES_API_URL } from './api-config';
import { ApiError, request, requestFile } from './http';
import { type AllianceFilters, InvoicePageOrArray, invoiceListQuery } from './providers.service';

const ZIP_TYPE = 'application/zip';

/** Bytes received so far and, when the server sent Content-Length, how many to expect (else null). */
export interface DownloadProgress {
  loaded: number;
  total: number | null;
}

/**
 * A page of the provider's advanced invoices (PROCESS and PAID) with the same filters as Pronto Pago; the
 * status narrows within the two. An array answer is an empty page.
 */
export async function listAdvancedInvoices(filters: AllianceFilters, page: number): Promise<InvoicePage> {
  const body = await request(
    `${INVOICES_API_URL}/providers/advanced-invoices/?${invoiceListQuery(filters, page)}`,
    InvoicePageOrArray,
    { allowArray: true },
  );
  if (Array.isArray(body)) return { count: 0, next: null, previous: null, results: [] };
  return body;
}

/** A response body read chunk by chunk, reporting each chunk, as a Blob of the response's type. */
export async function readBody(
  response: Response,
  onProgress: (progress: DownloadProgress) => void,
): Promise<Blob> {
  const length = Number(response.headers.get('content-length'));
  const total = Number.isSafeInteger(length) && length > 0 ? length : null;
  const type = response.headers.get('content-type') ?? ZIP_TYPE;
  if (!response.body) return new Blob([await response.arrayBuffer()], { type });
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    loaded += value.byteLength;
    onProgress({ loaded, total });
  }
  return new Blob(chunks as BlobPart[], { type });
}

/**
 * POST providers/advanced-invoices/download/ {invoice_ids}: the ZIP of the selected invoices' XML and PDF,
 * read chunk by chunk so the page can show progress. Errors follow http.ts: status 0 without a response, 401
 * ends the session (storage cleared, back to '/'); an expiring token is renewed before the call.
 */
export async function downloadAdvancedInvoices(
  invoiceIds: readonly number[],
  onProgress: (progress: DownloadProgress) => void,
): Promise<Blob> {
  const response = await requestFile(`${INVOICES_API_URL}/providers/advanced-invoices/download/`, ZIP_TYPE, {
    method: 'POST',
    body: { invoice_ids: invoiceIds },
  });
  try {
    return await readBody(response, onProgress);
  } catch (error) {
    // The connection dropped mid-body.
    console.warn('download interrupted', error);
    throw new ApiError(0, null);
  }
}

/** Saves a blob as a file: an object URL and a click on a temporary <a download>. */
export function saveBlob(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  document.body.append(link);
  link.click();
  link.remove();
  // Revoked on the next turn: some browsers read the URL after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 0);
}
