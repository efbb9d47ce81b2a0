import dayjs from 'dayjs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { corporateAccessRefusal, type OnboardingState } from '../../src/domain/corporate-file';
import { bearer, type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp, testConfig } from '../support/api-app';
import {
  type DocumentedOperation,
  documentedOperations,
  fillPath,
  type OpenApiDocument,
  resolveSchema,
  type Schema,
  servedDocument,
} from '../support/openapi';
import { addCompanyWithUser } from '../support/pronto-pago';

/**
 * The authorization matrix, generated from GET /api/openapi.json: every operation × anonymous, provider, another
 * provider, corporate, another corporate, called with the owners' resource (a demo invoice the provider issued to
 * the corporate). Expected answers come from the document: `security` (401 without a session) and `x-roles`
 * (403 for an account kind the operation does not serve); another company's resource is a 404 (the convention of
 * test/api/providers-tenant-isolation.test.ts); the owners get an answer that is neither. No answer may carry
 * another company's invoices or RFC.
 *
 * The onboarding callers (decision 0058) are corporates whose onboarding is not active: a promoted provider's
 * invited admin (SAT link authorized, is_corporate) in borrador, under review, rejected and suspended. They have
 * no corporate side: every corporate-only operation answers 403 with the onboarding's Spanish reason, and they
 * act as the provider they still are (another company than the owners).
 */

type Caller =
  | 'anonymous'
  | 'provider'
  | 'otherProvider'
  | 'corporate'
  | 'otherCorporate'
  | 'corporateDraft'
  | 'corporateReview'
  | 'corporateRejected'
  | 'corporateSuspended';
const ONBOARDING_CALLERS = {
  corporateDraft: 'borrador',
  corporateReview: 'en_revision',
  corporateRejected: 'rechazado',
  corporateSuspended: 'suspendido',
} as const satisfies Partial<Record<Caller, OnboardingState>>;
type OnboardingCaller = keyof typeof ONBOARDING_CALLERS;
const CALLERS: readonly Caller[] = [
  'anonymous',
  'provider',
  'otherProvider',
  'corporate',
  'otherCorporate',
  ...(Object.keys(ONBOARDING_CALLERS) as OnboardingCaller[]),
];
/** The account kind each caller is served as: a corporate without access is served as the provider it is. */
const KIND: Record<Exclude<Caller, 'anonymous'>, 'provider' | 'corporate'> = {
  provider: 'provider',
  otherProvider: 'provider',
  corporate: 'corporate',
  otherCorporate: 'corporate',
  corporateDraft: 'provider',
  corporateReview: 'provider',
  corporateRejected: 'provider',
  corporateSuspended: 'provider',
};
const isOnboardingCaller = (caller: Caller): caller is OnboardingCaller => caller in ONBOARDING_CALLERS;

const USERNAME: Record<Exclude<Caller, 'anonymous'>, string> = {
  provider: 'proveedor.demo',
  otherProvider: 'otro.proveedor',
  corporate: 'corporativo.demo',
  otherCorporate: 'otro.corporativo',
  corporateDraft: `corporativo.${ONBOARDING_CALLERS.corporateDraft}`,
  corporateReview: `corporativo.${ONBOARDING_CALLERS.corporateReview}`,
  corporateRejected: `corporativo.${ONBOARDING_CALLERS.corporateRejected}`,
  corporateSuspended: `corporativo.${ONBOARDING_CALLERS.corporateSuspended}`,
};

/** 'served' = any answer below 500 that is not a refusal of the caller (401, 403): 2xx or a validation 4xx. */
type Expected = 401 | 403 | 404 | 'served';

const ID_FIELD = /(^|_)ids?$|^id_/;

/** Does the operation name a resource (a path id, or ids in its body)? */
function namesResource(document: OpenApiDocument, entry: DocumentedOperation): boolean {
  if (entry.path.includes('{')) return true;
  const seen = new Set<Schema>();
  const visit = (raw: Schema, name: string): boolean => {
    const schema = resolveSchema(document, raw);
    if (seen.has(schema)) return false;
    seen.add(schema);
    if (ID_FIELD.test(name)) return true;
    const properties = (schema.properties ?? {}) as Record<string, Schema>;
    const items = schema.items as Schema | undefined;
    return (
      Object.entries(properties).some(([key, child]) => visit(child, key)) ||
      (items !== undefined && visit(items, name))
    );
  };
  const body = entry.operation.requestBody?.content['application/json']?.schema;
  return body !== undefined && visit(body, '');
}

/** One plausible body that follows the schema and points at the owners' invoice (ids, dates a month ahead). */
function sampleBody(document: OpenApiDocument, raw: Schema, invoiceId: number, name = ''): unknown {
  const schema = resolveSchema(document, raw);
  if (Array.isArray(schema.enum) && schema.enum.length > 0) return schema.enum[0];
  if ('const' in schema) return schema.const;
  const alternatives = (schema.anyOf ?? schema.oneOf) as Schema[] | undefined;
  if (Array.isArray(alternatives) && alternatives.length > 0) {
    return sampleBody(document, alternatives[0]!, invoiceId, name);
  }
  const type = [schema.type].flat()[0];
  switch (type) {
    case 'object': {
      const properties = (schema.properties ?? {}) as Record<string, Schema>;
      return Object.fromEntries(
        Object.entries(properties).map(([key, child]) => [key, sampleBody(document, child, invoiceId, key)]),
      );
    }
    case 'array':
      return [sampleBody(document, (schema.items as Schema | undefined) ?? {}, invoiceId, name)];
    case 'integer':
    case 'number':
      return ID_FIELD.test(name) ? invoiceId : 1;
    case 'boolean':
      return false;
    case 'string':
      if (schema.format === 'date') return dayjs().add(30, 'day').format('YYYY-MM-DD');
      if (schema.format === 'email') return 'ana.torres@example.mx';
      if (/rfc/i.test(name)) return 'XAXX010101000';
      if (ID_FIELD.test(name)) return String(invoiceId);
      return typeof schema.pattern === 'string' && schema.pattern.includes('\\d') ? '5512345678' : 'Prueba';
    default:
      return null;
  }
}

/**
 * `ownerStatus`: what the owner of the same kind got for the same call. When the owner's body was refused as
 * invalid (400), nothing looked at the resource, so the other company gets the same 400.
 */
function expected(
  document: OpenApiDocument,
  entry: DocumentedOperation,
  caller: Caller,
  ownerStatus: number | undefined,
): Expected {
  const roles = entry.operation['x-roles'] ?? [];
  if (caller === 'anonymous') return entry.operation.security ? 401 : 'served';
  if (!entry.operation.security) return 'served';
  if (!roles.includes(KIND[caller])) return 403;
  const other = caller === 'otherProvider' || caller === 'otherCorporate' || isOnboardingCaller(caller);
  if (other && namesResource(document, entry) && ownerStatus !== 400) return 404;
  return 'served';
}

function matches(status: number, want: Expected, entry: DocumentedOperation): boolean {
  // A call without a session may answer 401 for its own reasons when it documents it (wrong credentials).
  const own401 = !entry.operation.security && entry.operation.responses['401'] !== undefined;
  if (want === 'served') return status < 500 && (status !== 401 || own401) && status !== 403;
  return status === want;
}

const OWNER_OF: Partial<Record<Caller, Caller>> = {
  otherProvider: 'provider',
  otherCorporate: 'corporate',
  corporateDraft: 'provider',
  corporateReview: 'provider',
  corporateRejected: 'provider',
  corporateSuspended: 'provider',
};

describe('authorization matrix over /api/openapi.json', () => {
  let ctx: ApiTestContext;
  let document: OpenApiDocument;
  const sessions: Partial<Record<Caller, Session>> = {};
  let invoiceId: number;
  let factoringRequestId: number | null;
  /** What only the owners may see: their invoices' fiscal folios and their RFCs. */
  let ownersMarkers: string[];
  /** Invoices the provider did not issue (other demo providers'): never in the provider's answers. */
  let othersFolios: string[];

  beforeAll(async () => {
    ctx = await createApiApp({ config: testConfig({ ACCESS_TOKEN_MINUTES: '60' }) });
    document = await servedDocument(ctx.app);
    const db = ctx.database.db;
    const owner = await db
      .selectFrom('companies')
      .selectAll()
      .where('rfc', '=', DEMO_PROVIDERS[0].rfc)
      .executeTakeFirstOrThrow();
    // The other companies are the owners' twins (authorized SAT link) but for ownership.
    await addCompanyWithUser(db, {
      rfc: 'PFL200115K34',
      name: 'Proveedora Flores y Limón',
      username: 'otro.proveedor',
    });
    await addCompanyWithUser(db, {
      rfc: 'CNO100823HX5',
      name: 'Corporativo Norteño',
      username: 'otro.corporativo',
      isCorporate: true,
    });
    // Every caller's company has a factoring line, so the factoring calls answer on role and ownership rather than
    // on a missing line (a 403 of its own, tested in factoring.test.ts).
    await db
      .updateTable('companies')
      .set({ has_factoring: true, credit_line: '1000000.00', factoring_rate: '18.0000' })
      .where('rfc', 'in', [DEMO_PROVIDERS[0].rfc, DEMO_CORPORATE.rfc, 'PFL200115K34', 'CNO100823HX5'])
      .execute();
    sessions.provider = await sessionFor(ctx.app, 'proveedor.demo');
    sessions.otherProvider = await sessionFor(ctx.app, 'otro.proveedor');
    sessions.corporate = await sessionFor(ctx.app, 'corporativo.demo');
    sessions.otherCorporate = await sessionFor(ctx.app, 'otro.corporativo');
    const onboardingRfcs = ['CBO100823AB1', 'CRE100823AB2', 'CRC100823AB3', 'CSU100823AB4'];
    for (const [i, [caller, state]] of Object.entries(ONBOARDING_CALLERS).entries()) {
      await addCompanyWithUser(db, {
        rfc: onboardingRfcs[i]!,
        name: `Corporativo ${state}`,
        username: USERNAME[caller as OnboardingCaller],
        isCorporate: true,
        onboardingState: state,
      });
      sessions[caller as OnboardingCaller] = await sessionFor(ctx.app, USERNAME[caller as OnboardingCaller]);
    }
    await db
      .updateTable('companies')
      .set({ has_factoring: true, credit_line: '1000000.00', factoring_rate: '18.0000' })
      .where('rfc', 'in', onboardingRfcs)
      .execute();

    const invoices = await db
      .selectFrom('invoices')
      .select(['id', 'cfdi_uuid', 'emitter_company_id'])
      .execute();
    const owned = invoices.filter((invoice) => invoice.emitter_company_id === owner.id);
    invoiceId = owned[0]!.id;
    const request = await db
      .selectFrom('factoring_requests')
      .select('id')
      .where('provider_id', '=', owner.id)
      .executeTakeFirst();
    factoringRequestId = request?.id ?? null;
    ownersMarkers = [...owned.map((invoice) => invoice.cfdi_uuid), DEMO_PROVIDERS[0].rfc, DEMO_CORPORATE.rfc];
    othersFolios = invoices
      .filter((invoice) => invoice.emitter_company_id !== owner.id)
      .map((i) => i.cfdi_uuid);
  });
  afterAll(() => ctx.close());

  function call(entry: DocumentedOperation, caller: Caller): Promise<LightMyRequestResponse> {
    const id =
      /factoring-request/.test(entry.path) && factoringRequestId !== null ? factoringRequestId : invoiceId;
    const url = fillPath(entry.path, { id: String(id) });
    const content = entry.operation.requestBody?.content ?? {};
    const json = content['application/json']?.schema;
    const session = sessions[caller];
    const headers: Record<string, string> = session ? bearer(session) : {};
    if (entry.operation.parameters?.some((p) => p.in === 'header' && p.name === 'Idempotency-Key')) {
      headers['idempotency-key'] = `matriz-${caller}-${entry.operation.operationId}`;
    }
    if (json) {
      return ctx.app.inject({
        method: entry.method,
        url,
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify(sampleBody(document, json, invoiceId)),
      });
    }
    if (Object.keys(content).some((type) => type.startsWith('multipart/'))) {
      // An empty upload: enough for the role checks, which come before the file is read.
      return ctx.app.inject({
        method: entry.method,
        url,
        headers: { ...headers, 'content-type': 'multipart/form-data; boundary=matriz' },
        payload: '--matriz--\r\n',
      });
    }
    return ctx.app.inject({ method: entry.method, url, headers });
  }

  it('declares x-roles on every operation, and each answer is the expected one with nothing leaked', async () => {
    const entries = documentedOperations(document);
    const rows: string[][] = [];
    const mismatches: string[] = [];
    const leaks: string[] = [];
    let cells = 0;
    for (const entry of entries) {
      expect(entry.operation['x-roles'], `${entry.method} ${entry.path}`).toBeDefined();
      const row = [`${entry.method} ${entry.path}`, (entry.operation['x-roles'] ?? []).join(',')];
      const statusOf: Partial<Record<Caller, number>> = {};
      for (const caller of CALLERS) {
        const owner = OWNER_OF[caller];
        const want = expected(document, entry, caller, owner ? statusOf[owner] : undefined);
        const res = await call(entry, caller);
        statusOf[caller] = res.statusCode;
        // A logout ends the caller's session (decision 0061): the next operations get a new one.
        if (entry.path === '/api/accounts/logout/' && res.statusCode === 204 && caller !== 'anonymous') {
          sessions[caller] = await sessionFor(ctx.app, USERNAME[caller]);
        }
        cells += 1;
        const ok = matches(res.statusCode, want, entry);
        row.push(`${res.statusCode}${ok ? '' : `≠${want}`}`);
        if (!ok)
          mismatches.push(
            `${caller} ${entry.method} ${entry.path}: ${res.statusCode} (expected ${want}) ${res.body.slice(0, 200)}`,
          );
        // A corporate without access is told why: its onboarding state's reason, not a generic refusal.
        const roles = entry.operation['x-roles'] ?? [];
        if (ok && want === 403 && isOnboardingCaller(caller) && roles.includes('corporate')) {
          const reason = corporateAccessRefusal(ONBOARDING_CALLERS[caller]);
          if (res.json<{ detail?: string }>().detail !== reason)
            mismatches.push(
              `${caller} ${entry.method} ${entry.path}: 403 without the onboarding reason ${res.body}`,
            );
        }
        const body = res.rawPayload.toString('latin1');
        const forbidden = caller === 'provider' ? othersFolios : caller === 'corporate' ? [] : ownersMarkers;
        const leaked = forbidden.filter((marker) => body.includes(marker));
        if (leaked.length > 0)
          leaks.push(`${caller} ${entry.method} ${entry.path}: ${leaked.slice(0, 3).join(', ')}`);
      }
      rows.push(row);
    }

    const header = ['operation', 'x-roles', ...CALLERS];
    const widths = header.map((title, i) => Math.max(title.length, ...rows.map((row) => row[i]!.length)));
    const line = (cellsOfRow: string[]) => cellsOfRow.map((cell, i) => cell.padEnd(widths[i]!)).join(' | ');
    console.log(
      [
        `authorization matrix: ${entries.length} operations × ${CALLERS.length} callers = ${cells} calls ` +
          `(≠ marks an answer other than expected)`,
        line(header),
        widths.map((width) => '-'.repeat(width)).join('-|-'),
        ...rows.map(line),
      ].join('\n'),
    );
    expect(mismatches).toEqual([]);
    expect(leaks).toEqual([]);
    expect(cells).toBe(entries.length * CALLERS.length);
  }, 300_000);
});
