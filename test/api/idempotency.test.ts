// @postgresql: concurrent identical and conflicting money calls: unique constraints and locks racing across connections.
import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import {
  IdempotencyError,
  parseIdempotencyKey,
  pruneIdempotencyKeys,
  requestFingerprint,
  runIdempotent,
} from '../../server/modules/idempotency/idempotency.service';
import { detailRefusal } from '../../server/modules/invoices/refusals';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import {
  advanceTo,
  authorizePending,
  eventCount,
  importInvoice,
  postJson,
  statusOf,
} from '../support/pronto-pago';

const ADVANCE = '/api/providers/forward-payment/';
const REQUEST = '/api/providers/request-payment/';
const CONCURRENT = 50;

describe('Idempotency-Key on money-moving calls', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let corporate: Session;
  const db = () => ctx.database.db;
  const paymentDate = () => dayjs(businessDate(new Date())).add(40, 'day').format('YYYY-MM-DD');

  beforeAll(async () => {
    ctx = await createApiApp();
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
  });
  afterAll(() => ctx.close());

  async function approvedInvoice(): Promise<number> {
    const id = await importInvoice(db());
    await advanceTo(db(), id, 'approved', paymentDate());
    return id;
  }

  const advanceEvents = async (id: number) =>
    (
      await db()
        .selectFrom('invoice_events')
        .select('id')
        .where('invoice_id', '=', id)
        .where('event', '=', 'invoice.approveAdvance')
        .execute()
    ).length;

  it(`${CONCURRENT} concurrent identical approvals with one key: one PROCESS transition, one event, the same answer`, async () => {
    const id = await approvedInvoice();
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT }, () =>
        postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id }, 'approve-once-0001'),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual(Array(CONCURRENT).fill(200));
    expect(new Set(responses.map((r) => r.body)).size).toBe(1);
    expect(responses.filter((r) => r.headers['idempotent-replayed'] === 'true')).toHaveLength(CONCURRENT - 1);
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.PROCESS);
    expect(await advanceEvents(id)).toBe(1);
    const keys = await db()
      .selectFrom('idempotency_keys')
      .selectAll()
      .where('key', '=', 'approve-once-0001')
      .execute();
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ method: 'POST', path: ADVANCE, response_status: 200 });
  });

  it(`${CONCURRENT} concurrent approvals with different keys: exactly one succeeds, the rest are 409`, async () => {
    const id = await approvedInvoice();
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id }, `approve-distinct-${i}`),
      ),
    );
    const codes = responses.map((r) => r.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(CONCURRENT - 1);
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.PROCESS);
    expect(await advanceEvents(id)).toBe(1);
  });

  it('a mix of one shared key and fresh keys still moves the invoice once', async () => {
    const id = await approvedInvoice();
    const responses = await Promise.all(
      Array.from({ length: CONCURRENT }, (_, i) =>
        postJson(
          ctx.app,
          ADVANCE,
          provider,
          { id_execute_factoring: id },
          i % 2 ? 'approve-mixed' : `mixed-${i}`,
        ),
      ),
    );
    expect(responses.filter((r) => r.statusCode === 200).length).toBeGreaterThanOrEqual(1);
    expect(responses.every((r) => r.statusCode === 200 || r.statusCode === 409)).toBe(true);
    expect(await advanceEvents(id)).toBe(1);
  });

  it('replays the first answer with its status (a stored 409 too) and never runs the call again', async () => {
    const id = await importInvoice(db());
    await advanceTo(db(), id, 'pending');
    // The first attempt is refused (the invoice is not APPROVED yet) and the refusal is stored.
    const first = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id }, 'early-approve');
    expect(first.statusCode).toBe(409);
    await authorizePending(db(), id, paymentDate());
    const retry = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id }, 'early-approve');
    expect(retry.statusCode).toBe(409);
    expect(retry.body).toBe(first.body);
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.APPROVED);
    const fresh = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: id }, 'later-approve');
    expect(fresh.statusCode).toBe(200);
  });

  it('sends the e-mail of a request once, however often it is replayed', async () => {
    const id = await importInvoice(db());
    const count = async () => (await db().selectFrom('mail_outbox').select('id').execute()).length;
    const before = await count();
    for (let i = 0; i < 3; i++) {
      const res = await postJson(
        ctx.app,
        REQUEST,
        provider,
        { id_request_factoring: id },
        'request-mail-once',
      );
      expect(res.statusCode).toBe(200);
    }
    expect(await count()).toBe(before + 1);
    expect(await eventCount(db(), id)).toBe(2);
  });

  it('answers 422 when a key comes back with another body or on another call', async () => {
    const [a, b] = [await approvedInvoice(), await approvedInvoice()];
    const ok = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: a }, 'reused-key');
    expect(ok.statusCode).toBe(200);
    const otherBody = await postJson(ctx.app, ADVANCE, provider, { id_execute_factoring: b }, 'reused-key');
    expect(otherBody.statusCode).toBe(422);
    expect(otherBody.json()).toEqual({
      detail:
        'Esta clave de idempotencia ya se usó con otra solicitud. Genera una clave nueva para cada operación.',
      message:
        'Esta clave de idempotencia ya se usó con otra solicitud. Genera una clave nueva para cada operación.',
      message_type: 'error',
    });
    const otherCall = await postJson(ctx.app, REQUEST, provider, { id_execute_factoring: a }, 'reused-key');
    expect(otherCall.statusCode).toBe(400);
    const otherPath = await postJson(ctx.app, REQUEST, provider, { id_request_factoring: b }, 'reused-key');
    expect(otherPath.statusCode).toBe(422);
    expect(await statusOf(db(), b)).toBe(InvoiceStatus.APPROVED);
  });

  it('compares bodies by content, not by key order or spacing', async () => {
    const id = await importInvoice(db());
    const first = await postJson(
      ctx.app,
      REQUEST,
      provider,
      { id_request_factoring: id, extra: { b: 1, a: 2 } },
      'order',
    );
    const again = await ctx.app.inject({
      method: 'POST',
      url: REQUEST,
      headers: {
        authorization: `Bearer ${provider.access}`,
        'idempotency-key': '"order"',
        'content-type': 'application/json',
      },
      payload: `{ "extra": {"a": 2, "b": 1}, "id_request_factoring": ${id} }`,
    });
    expect(first.statusCode).toBe(200);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
  });

  it('scopes keys per user: the same key from another user is another request', async () => {
    const id = await importInvoice(db());
    await advanceTo(db(), id, 'pending');
    const asProvider = await postJson(
      ctx.app,
      REQUEST,
      provider,
      { id_request_factoring: id },
      'shared-key-text',
    );
    expect(asProvider.statusCode).toBe(409);
    const asCorporate = await postJson(
      ctx.app,
      '/api/corporates/manually-requests/authorize/',
      corporate,
      [{ invoice_id: id, payment_date: paymentDate() }],
      'shared-key-text',
    );
    expect(asCorporate.statusCode).toBe(200);
    expect(asCorporate.headers['idempotent-replayed']).toBeUndefined();
    const replay = await postJson(
      ctx.app,
      '/api/corporates/manually-requests/authorize/',
      corporate,
      [{ invoice_id: id, payment_date: paymentDate() }],
      'shared-key-text',
    );
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toEqual(asCorporate.json());
    expect(replay.headers['idempotent-replayed']).toBe('true');
  });

  it('stores nothing for invalid input: the key can be used again once the body is fixed', async () => {
    const id = await importInvoice(db());
    const invalid = await postJson(ctx.app, REQUEST, provider, {}, 'fix-and-retry');
    expect(invalid.statusCode).toBe(400);
    const fixed = await postJson(ctx.app, REQUEST, provider, { id_request_factoring: id }, 'fix-and-retry');
    expect(fixed.statusCode).toBe(200);
    expect(fixed.headers['idempotent-replayed']).toBeUndefined();
  });

  it('refuses a malformed key with 400 before doing anything', async () => {
    const id = await importInvoice(db());
    for (const key of ['x'.repeat(256), '""', 'ñandú']) {
      const res = await ctx.app.inject({
        method: 'POST',
        url: REQUEST,
        headers: { authorization: `Bearer ${provider.access}`, 'idempotency-key': key },
        payload: { id_request_factoring: id },
      });
      expect(res.statusCode, key).toBe(400);
      expect(res.json().detail).toContain('Idempotency-Key');
    }
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.AVAILABLE);
  });

  describe('runIdempotent', () => {
    const userId = async () =>
      (
        await db()
          .selectFrom('users')
          .select('id')
          .where('username', '=', 'proveedor.demo')
          .executeTakeFirstOrThrow()
      ).id;

    it('rolls the key back with the work when the call fails unexpectedly, so a retry runs', async () => {
      const call = {
        userId: await userId(),
        key: 'crash-then-retry',
        method: 'POST',
        path: '/x/',
        body: { a: 1 },
      };
      await expect(
        runIdempotent(
          db(),
          call,
          async () => {
            throw new Error('boom');
          },
          detailRefusal,
        ),
      ).rejects.toThrow('boom');
      expect(
        await db().selectFrom('idempotency_keys').select('key').where('key', '=', call.key).execute(),
      ).toEqual([]);
      const retried = await runIdempotent(
        db(),
        call,
        async () => ({ statusCode: 201, body: { ok: true } }),
        detailRefusal,
      );
      expect(retried).toEqual({ statusCode: 201, body: { ok: true }, replayed: false });
    });

    it('undoes the writes of a refused call but keeps its answer', async () => {
      const call = {
        userId: await userId(),
        key: 'refused-midway',
        method: 'POST',
        path: '/x/',
        body: [1, 2],
      };
      const result = await runIdempotent(
        db(),
        call,
        async (trx) => {
          await trx
            .insertInto('mail_outbox')
            .values({ recipient: 'x@y.mx', subject: 'midway', body_text: '' })
            .execute();
          throw Object.assign(new Error('No.'), { statusCode: 409 });
        },
        detailRefusal,
      );
      expect(result).toEqual({ statusCode: 409, body: { detail: 'No.' }, replayed: false });
      expect(
        await db().selectFrom('mail_outbox').select('id').where('subject', '=', 'midway').execute(),
      ).toEqual([]);
      const replay = await runIdempotent(
        db(),
        call,
        async () => ({ statusCode: 200, body: null }),
        detailRefusal,
      );
      expect(replay).toEqual({ statusCode: 409, body: { detail: 'No.' }, replayed: true });
    });

    it('parses keys and fingerprints bodies canonically', () => {
      expect(parseIdempotencyKey(undefined)).toBeNull();
      expect(parseIdempotencyKey(' "abc-123" ')).toBe('abc-123');
      expect(() => parseIdempotencyKey(['a', 'b'])).toThrow(IdempotencyError);
      expect(requestFingerprint({ a: 1, b: [1, { d: 2, c: 3 }] })).toBe(
        requestFingerprint({ b: [1, { c: 3, d: 2 }], a: 1 }),
      );
      expect(requestFingerprint({ a: 1 })).not.toBe(requestFingerprint({ a: '1' }));
    });

    it('prunes keys older than the retention', async () => {
      const id = await userId();
      await db()
        .insertInto('idempotency_keys')
        .values({
          user_id: id,
          key: 'ancient',
          method: 'POST',
          path: '/x/',
          request_hash: 'h',
          created_at: '2020-01-01T00:00:00Z',
        })
        .execute();
      expect(await pruneIdempotencyKeys(db(), new Date())).toBeGreaterThanOrEqual(1);
      expect(
        await db().selectFrom('idempotency_keys').select('key').where('key', '=', 'ancient').execute(),
      ).toEqual([]);
    });
  });
});
