import dayjs from 'dayjs';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildCfdiXml, type CfdiBuildInput } from '../../server/cfdi/build-cfdi';
import type { Db } from '../../server/db/database';
import { seedActiveProgrammes } from '../../server/modules/credit-programmes/programme-seed';
import { applyInvoiceEvent } from '../../server/modules/invoices/lifecycle.service';
import { importCfdiFiles } from '../../server/modules/sat/cfdi-import.service';
import { testInvoiceCfdi } from '../../server/modules/test-support/test-support.service';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { wireModules } from '../../server/services/module-wiring';
import type { OnboardingState } from '../../src/domain/corporate-file';
import { SatStatus, type SatStatusCode } from '../../src/domain/sat-status';
import { bearer, type Session } from './accounts';
import { testAuthenticity, testAuthority } from './demo-authority';
import { bodyOf, type HttpAnswer } from './real-server';

// These helpers move invoices on databases no app was built for (backup tests, scale worlds): like every entry
// point, they wire the modules first, so the credit ledger hears of each transition.
wireModules();

export const DEMO_PROVIDER = DEMO_PROVIDERS[0];

/** A company with one user who logs in with the demo password (its hash is copied: no argon2 cost). */
export async function addCompanyWithUser(
  db: Db,
  input: {
    rfc: string | null;
    name: string;
    username: string;
    isCorporate?: boolean;
    satStatus?: SatStatusCode;
    /** The corporate's onboarding state (the column's default, activo, when not given). */
    onboardingState?: OnboardingState;
  },
): Promise<{ companyId: number; userId: number }> {
  const company = await db
    .insertInto('companies')
    .values({
      rfc: input.rfc,
      name: input.name,
      is_corporate: input.isCorporate ?? false,
      sat_status: input.satStatus ?? SatStatus.AUTHORIZED,
      // A link under review claims its RFC (migration 019), as POST /ciec/ leaves it; this company also holds it.
      ...(input.satStatus === SatStatus.SENT && input.rfc !== null
        ? { sat_claimed_rfc: input.rfc, sat_claimed_at: new Date().toISOString() }
        : {}),
      ...(input.onboardingState && { onboarding_state: input.onboardingState }),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  // A corporate's advances reserve against its credit programme (decision 0052).
  if (input.isCorporate) await seedActiveProgrammes(db, [company.id]);
  const userId = await insertUser(db, { companyId: company.id, username: input.username });
  return { companyId: company.id, userId };
}

/**
 * A second user of a company that already exists (a demo provider, say): the same customers, another company
 * than the caller's. Its password is the demo provider's; returns the user's id.
 */
export async function addUserToCompany(
  db: Db,
  input: { rfc: string; username: string; firstName?: string; lastName?: string },
): Promise<number> {
  const company = await db
    .selectFrom('companies')
    .select('id')
    .where('rfc', '=', input.rfc)
    .executeTakeFirstOrThrow();
  return insertUser(db, { ...input, companyId: company.id });
}

/** A user of the company, signing in with the demo provider's password. */
async function insertUser(
  db: Db,
  input: { companyId: number; username: string; firstName?: string; lastName?: string },
): Promise<number> {
  const demo = await db
    .selectFrom('users')
    .select('password_hash')
    .where('username', '=', 'proveedor.demo')
    .executeTakeFirstOrThrow();
  const user = await db
    .insertInto('users')
    .values({
      username: input.username,
      email: `${input.username}@example.mx`,
      password_hash: demo.password_hash,
      first_name: input.firstName ?? 'Prueba',
      last_name: input.lastName ?? 'Flujo',
      company_id: input.companyId,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return user.id;
}

let folioSequence = 9000;

/** Imports one CFDI issued by a demo provider to the demo corporate through the real importer; returns its id. */
export async function importInvoice(
  db: Db,
  overrides: Partial<CfdiBuildInput> & { daysAgo?: number; today?: string } = {},
): Promise<number> {
  folioSequence += 1;
  const xml = buildCfdiXml(
    testInvoiceCfdi({
      folio: String(folioSequence),
      issuer: { rfc: DEMO_PROVIDER.rfc, name: DEMO_PROVIDER.name },
      receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
      ...overrides,
    }),
    testAuthority(),
  );
  const result = await importCfdiFiles(db, [{ name: `T-${folioSequence}.xml`, content: xml }], {
    actorLabel: 'prueba',
    authenticity: testAuthenticity(db),
  });
  const imported = result.imported[0];
  if (!imported) throw new Error(`import failed: ${JSON.stringify(result.rejected)}`);
  return imported.id;
}

/** Walks an AVAILABLE invoice to PENDING (and APPROVED with a payment date) as the demo users would. */
export async function advanceTo(
  db: Db,
  invoiceId: number,
  target: 'pending' | 'approved',
  paymentDate?: string,
): Promise<void> {
  const invoice = await db
    .selectFrom('invoices')
    .select(['emitter_company_id', 'receiver_company_id'])
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  await applyInvoiceEvent(
    db,
    invoiceId,
    {
      type: 'invoice.requestAuthorization',
      actor: { kind: 'provider', companyId: invoice.emitter_company_id, satAuthorized: true },
    },
    { userId: null, label: 'prueba' },
  );
  if (target === 'approved') {
    await authorizePending(db, invoiceId, paymentDate ?? dayjs().add(30, 'day').format('YYYY-MM-DD'));
  }
}

/** APPROVED → PROCESS as the emitting provider's 'Adelantar pago' would (it reserves on the buyer's programme). */
export async function requestAdvance(db: Db, invoiceId: number): Promise<void> {
  const invoice = await db
    .selectFrom('invoices')
    .select('emitter_company_id')
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  await applyInvoiceEvent(
    db,
    invoiceId,
    {
      type: 'invoice.approveAdvance',
      actor: { kind: 'provider', companyId: invoice.emitter_company_id, satAuthorized: true },
    },
    { userId: null, label: 'prueba' },
  );
}

/** PENDING → APPROVED as the receiving corporate would. */
export async function authorizePending(db: Db, invoiceId: number, paymentDate: string): Promise<void> {
  const invoice = await db
    .selectFrom('invoices')
    .select('receiver_company_id')
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  await applyInvoiceEvent(
    db,
    invoiceId,
    {
      type: 'invoice.authorize',
      actor: { kind: 'corporate', companyId: invoice.receiver_company_id, satAuthorized: true },
      paymentDate,
    },
    { userId: null, label: 'prueba' },
  );
}

export async function statusOf(db: Db, invoiceId: number): Promise<number> {
  const row = await db
    .selectFrom('invoices')
    .select('status')
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return row.status;
}

export async function eventCount(db: Db, invoiceId: number): Promise<number> {
  const rows = await db
    .selectFrom('invoice_events')
    .select('id')
    .where('invoice_id', '=', invoiceId)
    .execute();
  return rows.length;
}

/** Ids of a company's invoices in a status, oldest id first. */
export async function invoicesIn(
  db: Db,
  companyRfc: string,
  status: number,
  side: 'emitter' | 'receiver' = 'emitter',
) {
  const rows = await db
    .selectFrom('invoices')
    .select('id')
    .where(side === 'emitter' ? 'emitter_rfc' : 'receiver_rfc', '=', companyRfc)
    .where('status', '=', status)
    .orderBy('id')
    .execute();
  return rows.map((row) => row.id);
}

/**
 * The one JSON POST of the tests and scripts: to an app in this process (answered by inject) or to a running
 * server (`{ base }`, over HTTP, its answer's JSON parsed), as a session or a bare access token, with an
 * Idempotency-Key when given.
 */
export function postJson(
  app: FastifyInstance,
  url: string,
  session: Session | string | null,
  payload: unknown,
  idempotencyKey?: string,
): Promise<LightMyRequestResponse>;
export function postJson(
  server: { base: string },
  url: string,
  session: Session | string | null,
  payload: unknown,
  idempotencyKey?: string,
): Promise<HttpAnswer>;
export async function postJson(
  target: FastifyInstance | { base: string },
  url: string,
  session: Session | string | null,
  payload: unknown,
  idempotencyKey?: string,
): Promise<LightMyRequestResponse | HttpAnswer> {
  const headers = {
    ...(session ? bearer(session) : {}),
    ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
  };
  if (!('base' in target)) {
    return target.inject({ method: 'POST', url, payload: payload as Record<string, unknown>, headers });
  }
  const res = await fetch(`${target.base}${url}`, {
    method: 'POST',
    body: JSON.stringify(payload),
    headers: { ...headers, 'content-type': 'application/json' },
  });
  return { status: res.status, body: await bodyOf(res) };
}

export function getJson(
  app: FastifyInstance,
  url: string,
  session: Session | null,
): Promise<LightMyRequestResponse> {
  return app.inject({ method: 'GET', url, headers: session ? bearer(session) : {} });
}
