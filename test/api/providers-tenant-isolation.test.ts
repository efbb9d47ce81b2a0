import dayjs from 'dayjs';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { isAdvancedStatus } from '../../src/domain/advanced-invoices';
import { PROVIDER_STATUSES } from '../../src/domain/invoice-status';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import {
  addCompanyWithUser,
  addUserToCompany,
  eventCount,
  getJson,
  invoicesIn,
  postJson,
  statusOf,
} from '../support/pronto-pago';

const NOT_FOUND = /^Factura no encontrada(\.|: \d+\.)$/;
const DOWNLOAD = '/api/providers/advanced-invoices/download/';

describe('tenant isolation: another company’s invoice is a 404 on every invoice call', () => {
  let ctx: ApiTestContext;
  let otherProvider: Session;
  let otherCorporate: Session;
  let siblingProvider: Session;
  const db = () => ctx.database.db;
  const paymentDate = dayjs().add(30, 'day').format('YYYY-MM-DD');

  beforeAll(async () => {
    ctx = await createApiApp();
    // A provider and a corporate of their own, both with authorized SAT links, strangers to the demo world.
    await addCompanyWithUser(db(), {
      rfc: 'PFL200115K34',
      name: 'Proveedora Flores y Limón',
      username: 'otro.proveedor',
    });
    await addCompanyWithUser(db(), {
      rfc: 'CNO100823HX5',
      name: 'Corporativo Norteño',
      username: 'otro.corporativo',
      isCorporate: true,
    });
    // A second user of another demo provider: same corporate customer, different company.
    await addUserToCompany(db(), {
      rfc: DEMO_PROVIDERS[1].rfc,
      username: 'transportes.demo',
      firstName: 'Tomás',
      lastName: 'Sierra',
    });
    otherProvider = await sessionFor(ctx.app, 'otro.proveedor');
    otherCorporate = await sessionFor(ctx.app, 'otro.corporativo');
    siblingProvider = await sessionFor(ctx.app, 'transportes.demo');
  });
  afterAll(() => ctx.close());

  function expectNotFound(res: LightMyRequestResponse, what: string): void {
    expect(res.statusCode, `${what}: ${res.body}`).toBe(404);
    // Batch calls name the reference they could not find; nothing says whether it exists elsewhere.
    expect(res.json().detail).toMatch(NOT_FOUND);
  }

  const providerCalls = (session: Session, id: number) =>
    [
      [
        'request-payment',
        () =>
          postJson(
            ctx.app,
            '/api/providers/request-payment/',
            session,
            { id_request_factoring: id },
            `iso-r-${id}`,
          ),
      ],
      ['quote', () => getJson(ctx.app, `/api/providers/forward-payment/${id}/`, session)],
      [
        'advance',
        () =>
          postJson(
            ctx.app,
            '/api/providers/forward-payment/',
            session,
            { id_execute_factoring: id },
            `iso-a-${id}`,
          ),
      ],
      ['events', () => getJson(ctx.app, `/api/invoices/${id}/events/`, session)],
      ['download', () => postJson(ctx.app, DOWNLOAD, session, { invoice_ids: [id] })],
    ] as const;

  const corporateCalls = (session: Session, id: number) =>
    [
      [
        'authorize',
        () =>
          postJson(ctx.app, '/api/corporates/manually-requests/authorize/', session, [
            { invoice_id: id, payment_date: paymentDate },
          ]),
      ],
      [
        'reject',
        () => postJson(ctx.app, '/api/corporates/manually-requests/reject/', session, [{ invoice_id: id }]),
      ],
      ['events', () => getJson(ctx.app, `/api/invoices/${id}/events/`, session)],
    ] as const;

  it('another provider gets 404 for every provider call on the demo provider’s invoices, in every status', async () => {
    const owner = await sessionFor(ctx.app, 'proveedor.demo');
    for (const status of PROVIDER_STATUSES) {
      const [id] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, status);
      if (id === undefined) throw new Error(`no invoice in ${status}`);
      const events = await eventCount(db(), id);
      for (const session of [otherProvider, siblingProvider]) {
        for (const [name, call] of providerCalls(session, id))
          expectNotFound(await call(), `${name} ${status}`);
      }
      expect(await statusOf(db(), id)).toBe(status);
      expect(await eventCount(db(), id)).toBe(events);
      // The 404 is about the caller: the issuer itself downloads its advanced invoices.
      if (isAdvancedStatus(status)) {
        expect((await postJson(ctx.app, DOWNLOAD, owner, { invoice_ids: [id] })).statusCode).toBe(200);
      }
    }
  });

  it('another corporate gets 404 for every corporate call, and for the provider calls, on invoices it did not receive', async () => {
    for (const status of PROVIDER_STATUSES) {
      const [id] = await invoicesIn(db(), DEMO_CORPORATE.rfc, status, 'receiver');
      if (id === undefined) throw new Error(`no invoice in ${status}`);
      const events = await eventCount(db(), id);
      for (const [name, call] of corporateCalls(otherCorporate, id))
        expectNotFound(await call(), `${name} ${status}`);
      for (const [name, call] of providerCalls(otherCorporate, id))
        expectNotFound(await call(), `${name} ${status}`);
      expect(await statusOf(db(), id)).toBe(status);
      expect(await eventCount(db(), id)).toBe(events);
    }
  });

  it('the lists show strangers nothing of the demo world', async () => {
    const provider = await getJson(ctx.app, '/api/providers/alliances/?page_size=100', otherProvider);
    expect(provider.json()).toMatchObject({ count: 0, results: [] });
    const corporate = await getJson(
      ctx.app,
      '/api/corporates/manually-requests/?page_size=100',
      otherCorporate,
    );
    expect(corporate.json()).toMatchObject({ count: 0, results: [] });
    const sibling = await getJson(ctx.app, '/api/providers/alliances/?page_size=100', siblingProvider);
    expect(
      sibling.json().results.every((r: { emitter_rfc: string }) => r.emitter_rfc === DEMO_PROVIDERS[1].rfc),
    ).toBe(true);
  });

  it('the demo provider cannot act as the corporate on its own invoices (role flag, 403)', async () => {
    const provider = await sessionFor(ctx.app, 'proveedor.demo');
    const [pending] = await invoicesIn(db(), DEMO_PROVIDERS[0].rfc, 40);
    const res = await postJson(ctx.app, '/api/corporates/manually-requests/authorize/', provider, [
      { invoice_id: pending, payment_date: paymentDate },
    ]);
    expect(res.statusCode).toBe(403);
    expect(await statusOf(db(), pending as number)).toBe(40);
  });
});
