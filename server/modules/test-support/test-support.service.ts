import { createHmac, randomBytes, randomInt } from 'node:crypto';
import dayjs from 'dayjs';
import { checkCompanyRfc, rfcCheckDigit } from '../../../src/domain/rfc';
import { SatStatus } from '../../../src/domain/sat-status';
import type { InvoiceLifecycleEvent } from '../../../src/machines/invoice-lifecycle.machine';
import { buildCfdiXml, type CfdiBuildInput } from '../../cfdi/build-cfdi';
import type { Config } from '../../config';
import type { DatabaseHandle, Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { businessDate } from '../../http/business-date';
import { OPS_COMMANDS, runOpsCommand } from '../../ops/commands';
import { DEMO_PROVIDERS } from '../../seed/demo-world';
import { hashPassword } from '../accounts/password';
import { seedActiveProgrammes } from '../credit-programmes/programme-seed';
import { applyInvoiceEvent, IllegalTransitionError } from '../invoices/lifecycle.service';
import { type CfdiAuthenticity, demoAuthorityOf } from '../sat/cfdi-authenticity';
import { importCfdiFiles } from '../sat/cfdi-import.service';

/**
 * The test-support API's work (decision 0048): fresh worlds for tests that drive a running Flujo over HTTP,
 * and the operator's steps on them. Everything it creates is marked, and it acts on nothing unmarked.
 *
 * The mark lives in the company's name: ` · prueba <HMAC(token, rfc)>`. Without the token nobody can forge it,
 * it needs no column, and it survives restarts and several server processes. An invoice is test data when its
 * issuer and its receiver both are; a user when its company is.
 */

/** Why a call is refused: 404 for data the API did not create (it is not its to see), 400 for bad input. */
export class TestSupportError extends Error {
  constructor(
    readonly statusCode: 400 | 404,
    message: string,
  ) {
    super(message);
  }
}

export const TEST_SUPPORT_MESSAGES = {
  foreignCompany: 'La empresa no existe o no fue creada por la API de pruebas.',
  foreignInvoice: 'La factura no existe o no fue creada por la API de pruebas.',
  foreignUser: 'El usuario no existe o no fue creado por la API de pruebas.',
  importRefused: 'El CFDI de prueba fue rechazado',
} as const;

const MARK_SEPARATOR = ' · prueba ';

function markOf(token: string, rfc: string): string {
  return createHmac('sha256', token).update(`flujo-test-support:${rfc}`).digest('hex').slice(0, 16);
}

export function isMarkedCompany(token: string, company: { rfc: string | null; name: string }): boolean {
  return company.rfc !== null && company.name.endsWith(`${MARK_SEPARATOR}${markOf(token, company.rfc)}`);
}

const LETTERS = 'ABCDEFGHIJKLMNPQRSTUVWXYZ';
const ALPHANUMERIC = `${LETTERS}0123456789`;

function pick(alphabet: string): string {
  return alphabet.charAt(randomInt(alphabet.length));
}

/** A random company (moral) RFC with a real date and a valid check digit; the Q marks it as ours to a reader. */
export function randomCompanyRfc(): string {
  const date = dayjs('2000-01-01')
    .add(randomInt(20 * 365), 'day')
    .format('YYMMDD');
  const body = `Q${pick(LETTERS)}${pick(LETTERS)}${date}${pick(ALPHANUMERIC)}${pick(ALPHANUMERIC)}`;
  return body + rfcCheckDigit(body);
}

async function unusedRfc(db: Db): Promise<string> {
  for (;;) {
    const rfc = randomCompanyRfc();
    if (!checkCompanyRfc(rfc).ok) continue;
    const taken = await db.selectFrom('companies').select('id').where('rfc', '=', rfc).executeTakeFirst();
    if (!taken) return rfc;
  }
}

export interface Party {
  username: string;
  /** An @example.com address: mail to it reaches nobody, and GET /mails/ reads it back. */
  email: string;
  password: string;
  companyId: number;
  userId: number;
  rfc: string;
  companyName: string;
}

export interface TestWorld {
  /** The provider and the corporate, allied like the demo's (same rate, SAT link authorized). */
  provider: Party;
  corporate: Party;
  /** A provider and a corporate of other companies, with no alliance to the two above. */
  otherProvider: Party;
  otherCorporate: Party;
}

/**
 * A fresh world: four companies with one user each (a random password shared by the four), their SAT link
 * authorized, and an active alliance between the provider and the corporate. Shaped like the demo world's
 * first provider and its corporate (server/seed/demo-world.ts), so the pages show the same things.
 */
export async function createTestWorld(db: Db, token: string): Promise<TestWorld> {
  const run = randomBytes(4).toString('hex');
  const password = `Prueba-${randomBytes(9).toString('base64url')}-9`;
  const passwordHash = await hashPassword(password);
  return inTransaction(db, async (trx) => {
    const party = async (role: string, title: string, isCorporate: boolean): Promise<Party> => {
      const rfc = await unusedRfc(trx);
      const companyName = `${title} ${run}${MARK_SEPARATOR}${markOf(token, rfc)}`;
      const company = await trx
        .insertInto('companies')
        .values({
          rfc,
          name: companyName,
          is_corporate: isCorporate,
          sat_status: SatStatus.AUTHORIZED,
          ...(isCorporate
            ? { credit_line: '25000000.00', disbursement_clabe: '002010077777777771' }
            : { wallet_clabe: '012180026050783858' }),
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      // A corporate's advances reserve against its credit programme (decision 0052).
      if (isCorporate) await seedActiveProgrammes(trx, [company.id]);
      const username = `prueba.${run}.${role}`;
      const email = `${username}@example.com`;
      const user = await trx
        .insertInto('users')
        .values({
          username,
          // example.com never receives mail (RFC 2606): a staging server with SMTP sends nothing to anyone.
          email,
          password_hash: passwordHash,
          first_name: 'Prueba',
          last_name: 'Flujo',
          company_id: company.id,
          mobile_phone: '5512345678',
          receive_notification: true,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      return { username, email, password, companyId: company.id, userId: user.id, rfc, companyName };
    };
    const provider = await party('proveedor', 'Proveedora de prueba', false);
    const corporate = await party('corporativo', 'Corporativo de prueba', true);
    const otherProvider = await party('otro-proveedor', 'Otra proveedora de prueba', false);
    const otherCorporate = await party('otro-corporativo', 'Otro corporativo de prueba', true);
    await trx
      .insertInto('alliances')
      .values({
        corporate_id: corporate.companyId,
        provider_id: provider.companyId,
        max_rate: DEMO_PROVIDERS[0].rate,
      })
      .execute();
    return { provider, corporate, otherProvider, otherCorporate };
  });
}

async function markedCompany(db: Db, token: string, companyId: number) {
  const company = await db
    .selectFrom('companies')
    .select(['id', 'rfc', 'name'])
    .where('id', '=', companyId)
    .executeTakeFirst();
  if (!company || !isMarkedCompany(token, company)) {
    throw new TestSupportError(404, TEST_SUPPORT_MESSAGES.foreignCompany);
  }
  return { id: company.id, rfc: company.rfc as string, name: company.name };
}

async function markedInvoice(db: Db, token: string, invoiceId: number) {
  const invoice = await db
    .selectFrom('invoices')
    .select(['id', 'cfdi_uuid', 'status', 'emitter_company_id', 'receiver_company_id'])
    .where('id', '=', invoiceId)
    .executeTakeFirst();
  const refuse = new TestSupportError(404, TEST_SUPPORT_MESSAGES.foreignInvoice);
  if (!invoice) throw refuse;
  for (const companyId of [invoice.emitter_company_id, invoice.receiver_company_id]) {
    await markedCompany(db, token, companyId).catch(() => {
      throw refuse;
    });
  }
  return invoice;
}

/**
 * The CFDI the tests import unless they say otherwise: type I, PPD, MXN, 86,206.90 + 16 % IVA = 100,000.00,
 * issued `daysAgo` days before `today` at 11:00. test/support/pronto-pago.ts imports the same in process.
 */
export function testInvoiceCfdi(
  input: Pick<CfdiBuildInput, 'folio' | 'issuer' | 'receiver'> &
    Partial<CfdiBuildInput> & { daysAgo?: number; today?: string },
): CfdiBuildInput {
  const { daysAgo = 3, today = businessDate(new Date()), ...rest } = input;
  return {
    serie: 'T',
    issuedAt: `${dayjs(today).subtract(daysAgo, 'day').format('YYYY-MM-DD')}T11:00:00`,
    subtotal: '86206.90',
    currency: 'MXN',
    paymentMethod: 'PPD',
    description: 'Servicio de prueba',
    ...rest,
  };
}

export interface ImportedTestInvoice {
  id: number;
  uuid: string;
  serie: string | null;
  folio: string | null;
  amount: string;
  date_of_emission: string;
}

/** Imports one CFDI from a marked provider to a marked corporate through the real importer. */
export async function importTestInvoice(
  db: Db,
  authenticity: CfdiAuthenticity,
  token: string,
  input: { emitterCompanyId: number; receiverCompanyId: number; daysAgo?: number; description?: string },
): Promise<ImportedTestInvoice> {
  const issuer = await markedCompany(db, token, input.emitterCompanyId);
  const receiver = await markedCompany(db, token, input.receiverCompanyId);
  // Unique per issuer, so each invoice reads T-<n> like the in-process tests' invoices.
  const folio = String(100_000 + randomInt(900_000));
  const xml = buildCfdiXml(
    testInvoiceCfdi({
      folio,
      issuer: { rfc: issuer.rfc, name: issuer.name },
      receiver: { rfc: receiver.rfc, name: receiver.name },
      ...(input.daysAgo === undefined ? {} : { daysAgo: input.daysAgo }),
      ...(input.description === undefined ? {} : { description: input.description }),
    }),
    demoAuthorityOf(authenticity),
  );
  const result = await importCfdiFiles(db, [{ name: `T-${folio}.xml`, content: xml }], {
    actorLabel: 'prueba',
    authenticity,
  });
  const imported = result.imported[0];
  if (!imported) {
    const reason = result.rejected[0]?.reason ?? '';
    throw new TestSupportError(400, `${TEST_SUPPORT_MESSAGES.importRefused}: ${reason}`);
  }
  const row = await db
    .selectFrom('invoices')
    .select(['id', 'cfdi_uuid', 'serie', 'folio', 'amount', 'date_of_emission'])
    .where('id', '=', imported.id)
    .executeTakeFirstOrThrow();
  return {
    id: row.id,
    uuid: row.cfdi_uuid,
    serie: row.serie,
    folio: row.folio,
    amount: String(row.amount),
    date_of_emission: row.date_of_emission,
  };
}

export interface InvoiceFacts {
  status: number;
  /** Rows of its audit trail. */
  events: number;
  /** Disbursement records (one once paid). */
  disbursements: number;
}

/** What only the database knows about a marked invoice: what the tests check was (or was not) written. */
export async function testInvoiceFacts(db: Db, token: string, invoiceId: number): Promise<InvoiceFacts> {
  const invoice = await markedInvoice(db, token, invoiceId);
  const events = await db
    .selectFrom('invoice_events')
    .select(db.fn.countAll<string>().as('n'))
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  const disbursements = await db
    .selectFrom('disbursements')
    .select(db.fn.countAll<string>().as('n'))
    .where('invoice_id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  return { status: invoice.status, events: Number(events.n), disbursements: Number(disbursements.n) };
}

export interface TestInvoiceCfdi {
  uuid: string;
  serie: string | null;
  folio: string | null;
  /** The XML as the importer stored it (what the provider's ZIP download must hold). */
  xml: string;
}

/** The CFDI stored for a marked invoice, as the importer kept it. */
export async function storedTestCfdi(db: Db, token: string, invoiceId: number): Promise<TestInvoiceCfdi> {
  await markedInvoice(db, token, invoiceId);
  return db
    .selectFrom('invoices')
    .select(['cfdi_uuid as uuid', 'serie', 'folio', 'cfdi_xml as xml'])
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
}

export interface TestMail {
  subject: string;
  body_text: string;
}

/**
 * The mail the server queued for an address, newest first: only a marked user's (what a test reads back, say
 * a password-reset link); any other address is answered 404 as if it had none.
 */
export async function testMailsTo(db: Db, token: string, email: string): Promise<TestMail[]> {
  const user = await db
    .selectFrom('users')
    .select(['company_id'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .executeTakeFirst();
  if (!user || user.company_id === null) throw new TestSupportError(404, TEST_SUPPORT_MESSAGES.foreignUser);
  await markedCompany(db, token, user.company_id).catch(() => {
    throw new TestSupportError(404, TEST_SUPPORT_MESSAGES.foreignUser);
  });
  return db
    .selectFrom('mail_outbox')
    .select(['subject', 'body_text'])
    .where('recipient', '=', email)
    .orderBy('id', 'desc')
    .execute();
}

/** How a step ended: its HTTP-like code and what the actor was told. */
export interface StepOutcome {
  ok: boolean;
  code: number;
  message: string;
}

/**
 * Sends one lifecycle event to a marked invoice through the lifecycle service, as `userId` (a marked user):
 * the steps that have no endpoint of their own, and gestures by actors the endpoints would not let through.
 * A refusal is an outcome (ok false), not an error: the tests assert it.
 */
export async function applyTestEvent(
  db: Db,
  token: string,
  invoiceId: number,
  input: { event: InvoiceLifecycleEvent; userId: number },
): Promise<StepOutcome> {
  await markedInvoice(db, token, invoiceId);
  const user = await db
    .selectFrom('users')
    .select(['id', 'username', 'company_id'])
    .where('id', '=', input.userId)
    .executeTakeFirst();
  if (!user || user.company_id === null) throw new TestSupportError(404, TEST_SUPPORT_MESSAGES.foreignUser);
  await markedCompany(db, token, user.company_id).catch(() => {
    throw new TestSupportError(404, TEST_SUPPORT_MESSAGES.foreignUser);
  });
  if (input.event.actor.companyId !== null) await markedCompany(db, token, input.event.actor.companyId);
  try {
    const applied = await applyInvoiceEvent(db, invoiceId, input.event, {
      userId: user.id,
      label: user.username,
    });
    return { ok: true, code: 200, message: `${applied.from} → ${applied.to}` };
  } catch (error) {
    if (!(error instanceof IllegalTransitionError)) throw error;
    return { ok: false, code: error.statusCode, message: error.message };
  }
}

/** The operator's steps on one invoice, as `npm run ops` names them. */
export const TEST_OPS = ['disburse', 'sat:cancel', 'desk:reject'] as const;
export type TestOp = (typeof TEST_OPS)[number];

/** The reason the test operator gives when the control desk rejects an advance (`desk:reject`). */
export const TEST_DESK_REJECT_REASON = 'La CLABE no corresponde al proveedor';

/**
 * The arguments of a test operator step: disburse by id with --force (test worlds hold no programme reservation
 * or CLABE for the desk's checks, decision 0054), sat:cancel by UUID, desk:reject by id with its reason.
 */
export function opsArgs(op: TestOp, invoiceId: number, uuid: string): string[] {
  switch (op) {
    case 'disburse':
      return [String(invoiceId), '--force'];
    case 'sat:cancel':
      return [uuid];
    case 'desk:reject':
      return [String(invoiceId), '--reason', TEST_DESK_REJECT_REASON];
  }
}

/**
 * Runs the operator's ops command on a marked invoice, in this process with its database: the same command
 * `npm run ops -- disburse <id>` or `sat:cancel <UUID>` runs. Its exit code and lines are the outcome.
 */
export async function runTestOp(
  database: DatabaseHandle,
  config: Config,
  token: string,
  invoiceId: number,
  op: TestOp,
): Promise<{ code: number; lines: string[] }> {
  const invoice = await markedInvoice(database.db, token, invoiceId);
  const command = OPS_COMMANDS[op];
  if (!command) throw new Error(`no ops command ${op}`);
  const lines: string[] = [];
  const code = await runOpsCommand(command, opsArgs(op, invoice.id, invoice.cfdi_uuid), {
    config,
    database,
    output: { out: (line) => lines.push(line), err: (line) => lines.push(line) },
  });
  return { code, lines };
}
