import type { FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { INVOICE_NOT_FOUND } from '../../../src/domain/invoice-label';
import { isSatLinkAuthorized } from '../../../src/domain/sat-status';
import { MAX_SERIAL_ID } from '../../../src/domain/schemas/fields';
import type { LifecycleActor } from '../../../src/machines/invoice-lifecycle.machine';
import type { Db } from '../../db/database';
import { type AuthenticatedUser, currentUser } from '../auth/authenticate';
import { findInvoiceOfCompany, type InvoiceRow, type InvoiceSide } from './invoice.repository';
import type { ActorRecord } from './lifecycle.service';

/** A refusal with a Spanish message; the app's error handler answers it as {detail} with its status. */
export class InvoiceRequestError extends Error {
  constructor(
    readonly statusCode: 403 | 404 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

export const ACCESS_MESSAGES = {
  noCompany: 'Tu usuario no pertenece a ninguna empresa.',
  satNotAuthorized: 'Tu vinculación con el SAT no está autorizada. Vincula tu cuenta para continuar.',
  corporateOnly: 'Esta operación es solo para cuentas corporativas.',
  invoiceNotFound: INVOICE_NOT_FOUND,
} as const;

/** The caller of an invoice call, after the role, company and SAT-link checks. */
export interface InvoiceCaller {
  userId: number;
  username: string;
  companyId: number;
  isCorporate: boolean;
  hasFactoring: boolean;
  /** The company's SAT link is authorized; handed to the lifecycle machine, whose guards check it again. */
  satAuthorized: boolean;
}

/**
 * Checks what every invoice call needs before it looks at any invoice: a company, an authorized SAT link
 * and, for corporate calls, corporate access (active onboarding, invited user). 403 with a Spanish reason
 * otherwise.
 */
export function invoiceCaller(user: AuthenticatedUser, role: InvoiceRole): InvoiceCaller {
  if (user.companyId === null) throw new InvoiceRequestError(403, ACCESS_MESSAGES.noCompany);
  const satAuthorized = isSatLinkAuthorized(user.satStatus);
  if (!satAuthorized) throw new InvoiceRequestError(403, ACCESS_MESSAGES.satNotAuthorized);
  if (role === 'corporate' && !user.isCorporate) {
    // A corporate not (or no longer) active is told why (its onboarding state), not that it is no corporate.
    throw new InvoiceRequestError(403, user.corporateRefusal ?? ACCESS_MESSAGES.corporateOnly);
  }
  return {
    userId: user.id,
    username: user.username,
    companyId: user.companyId,
    isCorporate: user.isCorporate,
    hasFactoring: user.hasFactoring,
    satAuthorized,
  };
}

type InvoiceRole = 'provider' | 'corporate' | 'any';

const callers = new WeakMap<FastifyRequest, InvoiceCaller>();
const guards = new Map<InvoiceRole, preHandlerAsyncHookHandler>();

/**
 * preHandler after `app.requireUser`: the invoiceCaller checks as a step of the request, so a caller without a
 * company or SAT link hears its 403 before the request hook reads the route's params and query (an id no
 * invoice can have is then the route's 404, a bad filter its 400). The handler reads `requestInvoiceCaller`.
 */
export function invoiceCallerGuard(role: InvoiceRole): preHandlerAsyncHookHandler {
  let guard = guards.get(role);
  if (!guard) {
    guard = async (request) => {
      callers.set(request, invoiceCaller(currentUser(request), role));
    };
    guards.set(role, guard);
  }
  return guard;
}

/** The caller that `invoiceCallerGuard` checked for this request. */
export function requestInvoiceCaller(request: FastifyRequest): InvoiceCaller {
  const caller = callers.get(request);
  if (!caller) throw new Error('requestInvoiceCaller: the route has no invoiceCallerGuard');
  return caller;
}

/**
 * The lifecycle machine's view of the caller. invoiceCaller already answers 403 to an unauthorized SAT
 * link, so from a route satAuthorized is always true; the machine's guards check the same SAT status
 * again as defence in depth, so a caller built any other way (tests, future ops commands) is still
 * refused (409).
 */
export function lifecycleActor(caller: InvoiceCaller, kind: 'provider' | 'corporate'): LifecycleActor {
  return { kind, companyId: caller.companyId, satAuthorized: caller.satAuthorized };
}

/** Who the audit trail names. */
export function actorRecord(caller: InvoiceCaller): ActorRecord {
  return { userId: caller.userId, label: caller.username };
}

/**
 * The invoice with this id if the company is on the given side of it, locked FOR UPDATE when asked
 * (inside a transaction). Another company's invoice is reported exactly like a missing one (404), so
 * ids reveal nothing.
 */
export async function findCompanyInvoice(
  db: Db,
  invoiceId: number,
  companyId: number,
  side: InvoiceSide,
  options: { lock?: boolean } = {},
): Promise<InvoiceRow> {
  if (!Number.isSafeInteger(invoiceId) || invoiceId <= 0 || invoiceId > MAX_SERIAL_ID) {
    throw new InvoiceRequestError(404, ACCESS_MESSAGES.invoiceNotFound);
  }
  const row = await findInvoiceOfCompany(db, invoiceId, companyId, side, options);
  if (!row) throw new InvoiceRequestError(404, ACCESS_MESSAGES.invoiceNotFound);
  return row;
}

/** How people name an invoice; the domain's, so the lifecycle's refusals name it the same way. */
export { invoiceLabel } from '../../../src/domain/invoice-label';
