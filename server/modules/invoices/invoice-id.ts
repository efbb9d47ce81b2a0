import { MAX_SERIAL_ID } from '../../../src/domain/schemas/fields';
import { ACCESS_MESSAGES, InvoiceRequestError } from './invoice-access';

const ID_TEXT = /^[1-9]\d{0,9}$/;

/** An invoice id from a path segment; anything else is an invoice that does not exist (404). */
export function invoiceIdParam(params: unknown): number {
  const text = (params as { id?: unknown } | null)?.id;
  const id = typeof text === 'string' && ID_TEXT.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id) || id > MAX_SERIAL_ID) {
    throw new InvoiceRequestError(404, ACCESS_MESSAGES.invoiceNotFound);
  }
  return id;
}
