import {
  applyInvoiceEvent,
  IllegalTransitionError,
} from '../../../server/modules/invoices/lifecycle.service';
import { TEST_SUPPORT_PREFIX } from '../../../server/modules/test-support/test-support.routes';
import {
  type ImportedTestInvoice,
  type InvoiceFacts,
  opsArgs,
  type StepOutcome,
  type TestInvoiceCfdi,
  type TestMail,
  type TestOp,
  type TestWorld,
} from '../../../server/modules/test-support/test-support.service';
import { OPS_COMMANDS, runOpsCommand } from '../../../server/ops/commands';
import { DEMO_PASSWORD } from '../../../server/seed/demo-world';
import type { IsoDate } from '../../../src/domain/calendar-date';
import type { OperatorRole } from '../../../src/domain/operator-roles';
import type { InvoiceLifecycleEvent } from '../../../src/machines/invoice-lifecycle.machine';
import { testConfig } from '../../support/api-app';
import { createOperatorSession, type OperatorSession } from '../../support/operator';
import { addCompanyWithUser, importInvoice } from '../../support/pronto-pago';
import { callServer, isRemote, testApp } from './test-server';

/**
 * Where a model test file gets its world (decision 0048): the companies, users and invoices a path starts from,
 * the operator's steps, and the facts only the database knows. In process it is the demo world of the file's own
 * database; in remote mode (FLUJO_URL) fresh companies the running server's test-support API creates for this
 * file, so a run touches nothing it did not create. The pages and the users' own calls go through the browser
 * either way (MSW forwards them to the same server).
 */
export interface ModelWorld {
  /** The provider and the corporate of the paths, allied; signed in with their own password. */
  parties(): Promise<{ provider: Party; corporate: Party }>;
  /** A provider and a corporate of other companies (no alliance with the parties). */
  outsiders(): Promise<{ provider: Party; corporate: Party }>;
  /** One CFDI from the provider to the corporate through the real importer (Por Autorizar). */
  importInvoice(options?: { daysAgo?: number; description?: string }): Promise<WorldInvoice>;
  /** Status, audit-trail rows and disbursement records of an invoice. */
  facts(invoiceId: number): Promise<InvoiceFacts>;
  /** The mail the server queued for a party's address, newest first. */
  mailsTo(email: string): Promise<TestMail[]>;
  /**
   * Forgets the public forms' throttle counts, so a later path is not answered 429. In process it clears them;
   * a running server's are not the test's to clear (its self-test raises them: PUBLIC_WRITE_LIMIT_FACTOR).
   */
  forgetThrottles(): Promise<void>;
  /** The CFDI stored for an invoice: its folio fiscal, serie, folio and XML, as the importer kept them. */
  invoiceCfdi(invoiceId: number): Promise<TestInvoiceCfdi>;
  /** A lifecycle event through the server's lifecycle service, as this user; a refusal is an outcome. */
  applyEvent(invoiceId: number, event: InvoiceLifecycleEvent, user: Party): Promise<StepOutcome>;
  /** The operator's ops command (`disburse <id>`, `sat:cancel <UUID>`): its exit code and lines. */
  operator(op: TestOp, invoice: { id: number; uuid: string }): Promise<{ code: number; lines: string[] }>;
  /**
   * A back-office operator with these roles and an MFA-verified session (issue 19), for the /operacion pages.
   * In process only: the back office's model files are not in the remote run (harness/remote-models.ts).
   */
  operatorSession(roles: readonly OperatorRole[]): Promise<OperatorSession>;
}

export interface Party {
  username: string;
  email: string;
  password: string;
  userId: number;
  companyId: number;
  /** The company's RFC and name (what a CFDI it issues or receives names). */
  rfc: string;
  companyName: string;
}

export interface WorldInvoice {
  id: number;
  uuid: string;
  /** serie-folio, as the tables show it. */
  label: string;
  amount: string;
  emission: IsoDate;
}

function worldInvoice(row: ImportedTestInvoice): WorldInvoice {
  return {
    id: row.id,
    uuid: row.uuid,
    label: `${row.serie}-${row.folio}`,
    amount: row.amount,
    emission: row.date_of_emission as IsoDate,
  };
}

function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | null = null;
  return () => {
    made ??= make();
    return made;
  };
}

/** The demo world (server/seed/demo-world.ts) in the file's own database, written to directly. */
function inProcessWorld(): ModelWorld {
  const db = () => testApp().database.db;
  const party = async (username: string): Promise<Party> => {
    const row = await db()
      .selectFrom('users')
      .innerJoin('companies', 'companies.id', 'users.company_id')
      .select(['users.id', 'users.email', 'users.company_id', 'companies.rfc', 'companies.name'])
      .where('username', '=', username)
      .executeTakeFirstOrThrow();
    return {
      username,
      email: row.email,
      password: DEMO_PASSWORD,
      userId: row.id,
      companyId: row.company_id as number,
      rfc: row.rfc as string,
      companyName: row.name,
    };
  };
  const opsConfig = once(async () => testConfig());
  return {
    parties: once(async () => ({
      provider: await party('proveedor.demo'),
      corporate: await party('corporativo.demo'),
    })),
    outsiders: once(async () => {
      const others = { provider: 'otro.proveedor', corporate: 'otro.corporativo' };
      await addCompanyWithUser(db(), {
        rfc: 'OPR190101AB1',
        name: 'Otra Proveedora',
        username: others.provider,
      });
      await addCompanyWithUser(db(), {
        rfc: 'OCO190101AB2',
        name: 'Otro Corporativo',
        username: others.corporate,
        isCorporate: true,
      });
      return { provider: await party(others.provider), corporate: await party(others.corporate) };
    }),
    async importInvoice(options = {}) {
      const id = await importInvoice(db(), options);
      const row = await db()
        .selectFrom('invoices')
        .select(['id', 'cfdi_uuid as uuid', 'serie', 'folio', 'amount', 'date_of_emission'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      return worldInvoice({ ...row, amount: String(row.amount) });
    },
    async facts(invoiceId) {
      const invoice = await db()
        .selectFrom('invoices')
        .select('status')
        .where('id', '=', invoiceId)
        .executeTakeFirstOrThrow();
      const count = async (table: 'invoice_events' | 'disbursements') =>
        (await db().selectFrom(table).select('id').where('invoice_id', '=', invoiceId).execute()).length;
      return {
        status: invoice.status,
        events: await count('invoice_events'),
        disbursements: await count('disbursements'),
      };
    },
    mailsTo: (email) =>
      db()
        .selectFrom('mail_outbox')
        .select(['subject', 'body_text'])
        .where('recipient', '=', email)
        .orderBy('id', 'desc')
        .execute(),
    async forgetThrottles() {
      await db().deleteFrom('throttle_hits').execute();
    },
    async invoiceCfdi(invoiceId) {
      const row = await db()
        .selectFrom('invoices')
        .select(['cfdi_uuid as uuid', 'serie', 'folio', 'cfdi_xml as xml'])
        .where('id', '=', invoiceId)
        .executeTakeFirstOrThrow();
      return row;
    },
    async applyEvent(invoiceId, event, user) {
      try {
        const applied = await applyInvoiceEvent(db(), invoiceId, event, {
          userId: user.userId,
          label: user.username,
        });
        return { ok: true, code: 200, message: `${applied.from} → ${applied.to}` };
      } catch (error) {
        if (!(error instanceof IllegalTransitionError)) throw error;
        return { ok: false, code: error.statusCode, message: error.message };
      }
    },
    async operator(op, invoice) {
      const command = OPS_COMMANDS[op];
      if (!command) throw new Error(`no ops command ${op}`);
      const lines: string[] = [];
      const code = await runOpsCommand(command, opsArgs(op, invoice.id, invoice.uuid), {
        config: await opsConfig(),
        database: testApp().database,
        output: { out: (line) => lines.push(line), err: (line) => lines.push(line) },
      });
      return { code, lines };
    },
    operatorSession: (roles) => createOperatorSession({ ...testApp(), now: () => new Date() }, { roles }),
  };
}

async function testSupport<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const answer = await callServer(method, `${TEST_SUPPORT_PREFIX}${path}`, { body });
  if (answer.status >= 300) {
    throw new Error(`test-support ${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
  }
  return answer.body as T;
}

/** Fresh companies on the running server, created once per test file through its test-support API. */
function remoteWorld(): ModelWorld {
  const world = once(() => testSupport<TestWorld>('POST', '/worlds/'));
  const party = (created: TestWorld['provider']): Party => ({
    username: created.username,
    email: created.email,
    password: created.password,
    userId: created.userId,
    companyId: created.companyId,
    rfc: created.rfc,
    companyName: created.companyName,
  });
  return {
    parties: async () => {
      const created = await world();
      return { provider: party(created.provider), corporate: party(created.corporate) };
    },
    outsiders: async () => {
      const created = await world();
      return { provider: party(created.otherProvider), corporate: party(created.otherCorporate) };
    },
    async importInvoice(options = {}) {
      const { provider, corporate } = await world();
      const row = await testSupport<ImportedTestInvoice>('POST', '/invoices/', {
        emitterCompanyId: provider.companyId,
        receiverCompanyId: corporate.companyId,
        ...options,
      });
      return worldInvoice(row);
    },
    facts: (invoiceId) => testSupport<InvoiceFacts>('GET', `/invoices/${invoiceId}/`),
    mailsTo: (email) => testSupport<TestMail[]>('GET', `/mails/?to=${encodeURIComponent(email)}`),
    forgetThrottles: async () => {},
    invoiceCfdi: (invoiceId) => testSupport<TestInvoiceCfdi>('GET', `/invoices/${invoiceId}/cfdi/`),
    applyEvent: (invoiceId, event, user) =>
      testSupport<StepOutcome>('POST', `/invoices/${invoiceId}/events/`, { userId: user.userId, event }),
    operator: (op, invoice) => testSupport('POST', `/invoices/${invoice.id}/${op.replace(':', '-')}/`),
    operatorSession: async () => {
      throw new Error('operator sessions exist in process only (the back office is not in the remote run)');
    },
  };
}

/** This file's world: one per test file (each file runs in its own worker with its own modules). */
export const world: ModelWorld = isRemote() ? remoteWorld() : inProcessWorld();
