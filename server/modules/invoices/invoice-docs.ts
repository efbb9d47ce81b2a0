import { INVOICE_NOT_FOUND } from '../../../src/domain/invoice-label';
import { IdParams } from '../../../src/domain/schemas/fields';
import type { ParameterDoc, RouteDoc } from '../../http/openapi';

// What the invoice calls' refusals mean, for their OpenAPI entries (one wording for every route).

/** 403: invoiceCaller's checks. */
export const ACCESS_REFUSED =
  'Sin empresa, sin vinculación SAT autorizada, o cuenta no corporativa en una llamada corporativa.';
/** 404: findCompanyInvoice; another company's invoice answers exactly like a missing one. */
export const NOT_FOUND = 'La factura no existe o no es de tu empresa.';
/** 409: the lifecycle machine refuses the event in the invoice's current status. */
export const NOT_NOW =
  'La factura no admite esta operación ahora: su estado, su alianza o su fecha de pago no lo permiten.';
/** 422: the Idempotency-Key was used before for another call. */
export const KEY_REUSED = 'La Idempotency-Key ya se usó con otro cuerpo o en otra ruta.';

/** The refusals of a money-moving invoice call. */
export const INVOICE_REFUSALS: Record<number, string> = {
  403: ACCESS_REFUSED,
  404: NOT_FOUND,
  409: NOT_NOW,
  422: KEY_REUSED,
};

/** The `:id` of an invoice path. */
export const INVOICE_ID_PARAM: ParameterDoc = {
  description: 'Id numérico de la factura.',
  schema: { type: 'integer', minimum: 1 },
};

/**
 * The path of a route about one invoice (/…/:id/): declared as IdParams and read by the request hook, so an id
 * no invoice can have is the same 404 as a missing invoice. The route puts invoiceCallerGuard before it, so
 * the caller's 403 still comes first.
 */
export const INVOICE_PATH = {
  params: { id: INVOICE_ID_PARAM },
  paramsStruct: IdParams,
  paramsNotFound: INVOICE_NOT_FOUND,
} satisfies Partial<RouteDoc>;
