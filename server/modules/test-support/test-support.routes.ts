import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { boolean, enums, integer, min, nullable, object, optional, size, string } from 'superstruct';
import { type IdParams, payload, queryText } from '../../../src/domain/schemas/fields';
import { INVOICE_EVENT_TYPES } from '../../../src/machines/invoice-actions';
import type { InvoiceLifecycleEvent } from '../../../src/machines/invoice-lifecycle.machine';
import type { Config } from '../../config';
import type { RouteDoc } from '../../http/openapi';
import { INVOICE_PATH } from '../invoices/invoice-docs';
import {
  applyTestEvent,
  createTestWorld,
  importTestInvoice,
  runTestOp,
  storedTestCfdi,
  type TestOp,
  testInvoiceFacts,
  testMailsTo,
} from './test-support.service';

/** Where the routes live when enabled (TEST_SUPPORT_ROUTES with TEST_SUPPORT_TOKEN, server/config.ts). */
export const TEST_SUPPORT_PREFIX = '/api/test-support';
/** The header every call presents the token in. */
export const TEST_SUPPORT_TOKEN_HEADER = 'x-test-support-token';
export const WRONG_TOKEN_MESSAGE = 'Falta el token de la API de pruebas o no es válido.';

class WrongTokenError extends Error {
  readonly statusCode = 403;
  constructor() {
    super(WRONG_TOKEN_MESSAGE);
  }
}

function presentsToken(request: FastifyRequest, token: string): boolean {
  const given = request.headers[TEST_SUPPORT_TOKEN_HEADER];
  if (typeof given !== 'string') return false;
  const [a, b] = [Buffer.from(given), Buffer.from(token)];
  return a.length === b.length && timingSafeEqual(a, b);
}

const ImportBody = object({
  emitterCompanyId: integer(),
  receiverCompanyId: integer(),
  daysAgo: optional(size(integer(), 0, 150)),
  description: optional(size(string(), 1, 200)),
});

const EventBody = object({
  userId: min(integer(), 1),
  event: object({
    type: enums(INVOICE_EVENT_TYPES),
    actor: object({
      kind: enums(['provider', 'corporate', 'operator', 'sat']),
      companyId: nullable(integer()),
      satAuthorized: boolean(),
    }),
    paymentDate: optional(string()),
    buyerFunds: optional(boolean()),
    reason: optional(string()),
  }),
});

const TOKEN_REFUSED = { 403: WRONG_TOKEN_MESSAGE };
const FOREIGN = 'La factura, la empresa o el usuario no existe o no fue creado por la API de pruebas.';
const INVOICE_ID = { id: { description: 'Id de una factura creada por la API de pruebas.' } };

/** The test mailbox's filter: one address, trimmed (missing: none). */
const MailsQuery = payload({ to: queryText() });
type MailsQuery = typeof MailsQuery.TYPE;

const DOCS = {
  world: {
    summary: 'Test support: a fresh provider and corporate',
    description:
      'Solo con TEST_SUPPORT_ROUTES y el token: crea un proveedor y un corporativo aliados (y otro de cada uno), con usuario, contraseña y vinculación SAT autorizada.',
    status: 201,
    responses: TOKEN_REFUSED,
  },
  invoice: {
    summary: 'Test support: import a CFDI between test companies',
    description:
      'Solo con TEST_SUPPORT_ROUTES y el token: importa un CFDI de prueba del proveedor al corporativo, ambos creados por esta API.',
    body: ImportBody,
    status: 201,
    responses: { ...TOKEN_REFUSED, 404: FOREIGN },
  },
  facts: {
    summary: 'Test support: what the database holds of a test invoice',
    description:
      'Solo con TEST_SUPPORT_ROUTES y el token: estado, eventos del historial y dispersiones de una factura de prueba.',
    params: INVOICE_ID,
    paramsStruct: INVOICE_PATH.paramsStruct,
    paramsNotFound: INVOICE_PATH.paramsNotFound,
    responses: { ...TOKEN_REFUSED, 404: FOREIGN },
  },
  cfdi: {
    summary: 'Test support: the stored CFDI of a test invoice',
    description:
      'Solo con TEST_SUPPORT_ROUTES y el token: folio fiscal, serie, folio y XML guardados de una factura de prueba.',
    params: INVOICE_ID,
    paramsStruct: INVOICE_PATH.paramsStruct,
    paramsNotFound: INVOICE_PATH.paramsNotFound,
    responses: { ...TOKEN_REFUSED, 404: FOREIGN },
  },
  mails: {
    summary: 'Test support: the mail queued for a test user',
    description:
      'Solo con TEST_SUPPORT_ROUTES y el token: asunto y texto de los correos en cola para la dirección de un usuario de prueba, el más reciente primero.',
    query: { to: { description: 'Dirección de correo de un usuario creado por la API de pruebas.' } },
    queryStruct: MailsQuery,
    responses: { ...TOKEN_REFUSED, 404: FOREIGN },
  },
  event: {
    summary: 'Test support: a lifecycle event on a test invoice',
    description:
      'Solo con TEST_SUPPORT_ROUTES y el token: aplica un evento del ciclo de vida como un usuario de prueba; un rechazo es {ok: false}.',
    params: INVOICE_ID,
    paramsStruct: INVOICE_PATH.paramsStruct,
    paramsNotFound: INVOICE_PATH.paramsNotFound,
    body: EventBody,
    responses: { ...TOKEN_REFUSED, 404: FOREIGN },
  },
  op: {
    summary: 'Test support: an operator step on a test invoice',
    description:
      'Solo con TEST_SUPPORT_ROUTES y el token: ejecuta el comando de operación (disburse o sat:cancel) sobre una factura de prueba.',
    params: INVOICE_ID,
    paramsStruct: INVOICE_PATH.paramsStruct,
    paramsNotFound: INVOICE_PATH.paramsNotFound,
    responses: { ...TOKEN_REFUSED, 404: FOREIGN },
  },
} satisfies Record<string, RouteDoc>;

export interface TestSupportOptions {
  token: string;
  config: Config;
}

/**
 * The test-support API (decision 0048): registered by buildApp only when the configuration enables it, so a
 * server without it answers 404 on every path. Each call presents the token; what it creates is marked and it
 * refuses everything else (test-support.service.ts).
 */
export const testSupportRoutes: FastifyPluginAsync<TestSupportOptions> = async (app, { token, config }) => {
  const { db, database } = app;
  const requireToken = async (request: FastifyRequest) => {
    if (!presentsToken(request, token)) throw new WrongTokenError();
  };

  app.post(
    '/worlds/',
    { preHandler: requireToken, config: { openapi: DOCS.world } },
    async (_request, reply) => reply.status(201).send(await createTestWorld(db, token)),
  );

  app.post(
    '/invoices/',
    { preHandler: requireToken, config: { openapi: DOCS.invoice } },
    async (request, reply) =>
      reply
        .status(201)
        .send(await importTestInvoice(db, app.authenticity, token, request.body as typeof ImportBody.TYPE)),
  );

  app.get<{ Params: IdParams }>(
    '/invoices/:id/',
    { preHandler: requireToken, config: { openapi: DOCS.facts } },
    async (request) => testInvoiceFacts(db, token, request.params.id),
  );

  app.get<{ Params: IdParams }>(
    '/invoices/:id/cfdi/',
    { preHandler: requireToken, config: { openapi: DOCS.cfdi } },
    async (request) => storedTestCfdi(db, token, request.params.id),
  );

  app.get<{ Querystring: MailsQuery }>(
    '/mails/',
    { preHandler: requireToken, config: { openapi: DOCS.mails } },
    async (request) => {
      // No address, or not a test user's: answered like any address it did not create (404).
      const { to } = request.query;
      return testMailsTo(db, token, to ?? '');
    },
  );

  app.post<{ Params: IdParams }>(
    '/invoices/:id/events/',
    { preHandler: requireToken, config: { openapi: DOCS.event } },
    async (request) => {
      const body = request.body as typeof EventBody.TYPE;
      return applyTestEvent(db, token, request.params.id, {
        userId: body.userId,
        // The struct checked the shape; which fields an event type needs is the lifecycle machine's to judge.
        event: body.event as InvoiceLifecycleEvent,
      });
    },
  );

  for (const [path, op] of [
    ['disburse', 'disburse'],
    ['sat-cancel', 'sat:cancel'],
    ['desk-reject', 'desk:reject'],
  ] as const satisfies readonly (readonly [string, TestOp])[]) {
    app.post<{ Params: IdParams }>(
      `/invoices/:id/${path}/`,
      { preHandler: requireToken, config: { openapi: DOCS.op } },
      async (request) => runTestOp(database, config, token, request.params.id, op),
    );
  }
};
