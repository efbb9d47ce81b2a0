import { IdParams } from '../../../src/domain/schemas/fields';
import { validateForm } from '../../../src/domain/schemas/validate';
import { ACCESS_MESSAGES, InvoiceRequestError } from './invoice-access';

/**
 * An invoice id from a path segment (the one id rule, IdParams); anything else is an invoice that does not exist
 * (404). Read in the handler, not by the request hook, so a caller without a company or SAT link still hears 403
 * first (invoiceCaller runs before it).
 */
export function invoiceIdParam(params: unknown): number {
  const result = validateForm(IdParams, params);
  if (!result.ok) throw new InvoiceRequestError(404, ACCESS_MESSAGES.invoiceNotFound);
  return result.value.id;
}
