// @postgresql: the hash chain is a database trigger, and concurrent writers must chain in commit order.
// Issue 17, tamper-evident audit trail (decision 0044): `npm run ops -- audit:verify` passes on the demo world and
// after lifecycle calls through the API, and names the first broken row after a direct UPDATE or DELETE in the
// database, even when the tamperer recomputes the edited row's own hashes. Runs on PGlite and, with
// TEST_DATABASE_URL, on PostgreSQL.
import dayjs from 'dayjs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rollbackToSavepoint, savepoint } from '../../server/db/transaction';
import { businessDate } from '../../server/http/business-date';
import { OPS_COMMANDS, runOpsCommand } from '../../server/ops/commands';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp, testConfig } from '../support/api-app';
import { advanceTo, importInvoice, postJson, statusOf } from '../support/pronto-pago';

const TEST_MS = 120_000;

interface EventRow {
  id: number;
  invoice_id: number;
  chain_seq: string;
  reason: string | null;
  actor: string;
  to_status: number;
  hash: Uint8Array;
  chain_hash: Uint8Array;
}

describe('audit:verify', () => {
  let ctx: ApiTestContext;
  const db = () => ctx.database.db;

  beforeAll(async () => {
    ctx = await createApiApp();
  }, TEST_MS);
  afterAll(() => ctx.close());

  async function verify(): Promise<{ code: number; out: string }> {
    const lines: string[] = [];
    const code = await runOpsCommand(
      OPS_COMMANDS['audit:verify'] as NonNullable<(typeof OPS_COMMANDS)[string]>,
      [],
      {
        config: testConfig(),
        database: ctx.database,
        output: { out: (line) => lines.push(line), err: (line) => lines.push(line) },
      },
    );
    return { code, out: lines.join('\n') };
  }

  /** Events in chain order. */
  async function events(): Promise<EventRow[]> {
    const { rows } = await sql<EventRow>`
      select e.id, e.invoice_id, e.chain_seq::text as chain_seq, e.reason, e.actor, e.to_status, e.hash, e.chain_hash
      from invoice_events e order by e.chain_seq`.execute(db());
    return rows;
  }

  async function invoiceOf(id: number) {
    return db()
      .selectFrom('invoices')
      .select(['cfdi_uuid', sql<string>`concat_ws('-', serie, folio)`.as('folio')])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
  }

  /** A row in the middle of the chain whose invoice has a later event too. */
  async function middleRow(): Promise<{ row: EventRow; next: EventRow; all: EventRow[] }> {
    const all = await events();
    const index = all.findIndex(
      (row, i) =>
        i > 2 && i < all.length - 3 && all.slice(i + 1).some((later) => later.invoice_id === row.invoice_id),
    );
    const row = all[index];
    const next = all[index + 1];
    if (!row || !next) throw new Error('no middle row in the demo world');
    return { row, next, all };
  }

  async function expectBrokenAt(row: EventRow, check: RegExp): Promise<void> {
    const result = await verify();
    expect(result.code).toBe(1);
    const invoice = await invoiceOf(row.invoice_id);
    expect(result.out).toContain(`evento / event ${row.id} (#${row.chain_seq})`);
    expect(result.out).toContain(invoice.folio);
    expect(result.out).toContain(invoice.cfdi_uuid);
    expect(result.out).toMatch(check);
  }

  it(
    'passes on the demo world, counting every event and invoice',
    async () => {
      const result = await verify();
      expect(result.code, result.out).toBe(0);
      const counts = await sql<{ events: string; invoices: string }>`
        select count(*) as events, count(distinct invoice_id) as invoices from invoice_events`.execute(db());
      const [count] = counts.rows;
      expect(result.out).toContain(
        `Audit trail intact: ${Number(count?.events).toLocaleString('en-US')} eventos`,
      );
      expect(result.out).toContain(`${Number(count?.invoices).toLocaleString('en-US')} facturas`);
    },
    TEST_MS,
  );

  it(
    'stays valid as lifecycle calls through the API append events',
    async () => {
      const before = (await events()).length;
      const today = businessDate(new Date());
      const provider = await sessionFor(ctx.app, 'proveedor.demo');
      const corporate = await sessionFor(ctx.app, 'corporativo.demo');
      const id = await importInvoice(db(), { today });
      const requested = await postJson(ctx.app, '/api/providers/request-payment/', provider, {
        id_request_factoring: id,
      });
      expect(requested.statusCode, requested.body).toBe(200);
      const authorized = await postJson(ctx.app, '/api/corporates/manually-requests/authorize/', corporate, [
        { invoice_id: id, payment_date: dayjs(today).add(45, 'day').format('YYYY-MM-DD') },
      ]);
      expect(authorized.statusCode, authorized.body).toBe(200);
      expect(await statusOf(db(), id)).toBe(InvoiceStatus.APPROVED);
      const after = await events();
      expect(after.length).toBe(before + 3);
      // Each new row continues its invoice's chain and the global one.
      const mine = after.filter((row) => row.invoice_id === id);
      expect(mine.map((row) => Number(row.chain_seq))).toEqual([before + 1, before + 2, before + 3]);
      const result = await verify();
      expect(result.code, result.out).toBe(0);
      expect(result.out).toContain(`#${before + 3} sha256`);
    },
    TEST_MS,
  );

  it(
    'chains concurrent transactions one after the other, and forgets what a savepoint rolled back',
    async () => {
      const today = businessDate(new Date());
      const ids: number[] = [];
      for (let i = 0; i < 12; i++) ids.push(await importInvoice(db(), { today }));
      // Each its own transaction; on PostgreSQL they run at once on the pool and wait for the chain's head.
      await Promise.all(ids.map((id) => advanceTo(db(), id, 'approved')));
      await db()
        .transaction()
        .execute(async (trx) => {
          await savepoint(trx, 'audit_test');
          await sql`insert into invoice_events (invoice_id, event, from_status, to_status, actor)
            values (${ids[1]}, 'prueba', 30, 30, 'prueba')`.execute(trx);
          await rollbackToSavepoint(trx, 'audit_test');
          await sql`insert into invoice_events (invoice_id, event, from_status, to_status, actor)
            values (${ids[2]}, 'prueba', 30, 30, 'prueba')`.execute(trx);
        });
      const result = await verify();
      expect(result.code, result.out).toBe(0);
      const all = await events();
      expect(all.map((row) => Number(row.chain_seq))).toEqual(all.map((_, i) => i + 1));
    },
    TEST_MS,
  );

  it(
    'names the row after a direct UPDATE of its reason, actor or status, and again once it is put back',
    async () => {
      const { row } = await middleRow();
      const edits = [
        sql`update invoice_events set reason = 'editado a mano' where id = ${row.id}`,
        sql`update invoice_events set actor = 'otra persona' where id = ${row.id}`,
        sql`update invoice_events set to_status = ${InvoiceStatus.PAID} where id = ${row.id}`,
      ];
      for (const edit of edits) {
        await edit.execute(db());
        await expectBrokenAt(row, /contenido \/ content/);
        await sql`update invoice_events set reason = ${row.reason}, actor = ${row.actor}, to_status = ${row.to_status}
          where id = ${row.id}`.execute(db());
        expect((await verify()).code).toBe(0);
      }
    },
    TEST_MS,
  );

  it(
    "still fails when the edited row's hashes are recomputed: the row itself, then the next one",
    async () => {
      const { row, next } = await middleRow();
      await sql`update invoice_events set reason = 'editado a mano' where id = ${row.id}`.execute(db());
      // The tamperer recomputes the row's own hash with the database's function: its global link breaks.
      await sql`update invoice_events set hash = invoice_event_hash(prev_hash, id, invoice_id, event, from_status,
          to_status, actor_user_id, actor, reason, at) where id = ${row.id}`.execute(db());
      await expectBrokenAt(row, /cadena global \/ global chain/);
      // And its chain hash too: now the next row of the chain no longer links to it.
      await sql`update invoice_events e set chain_hash = invoice_event_chain_hash(
          (select p.chain_hash from invoice_events p where p.chain_seq = e.chain_seq - 1), e.hash, e.chain_seq)
        where id = ${row.id}`.execute(db());
      await expectBrokenAt(next, /cadena (global|de la factura)/);
      await sql`update invoice_events set reason = ${row.reason}, hash = ${row.hash}, chain_hash = ${row.chain_hash}
        where id = ${row.id}`.execute(db());
      expect((await verify()).code).toBe(0);
    },
    TEST_MS,
  );

  it(
    'names the new last row after the newest rows are deleted (the head no longer matches)',
    async () => {
      const all = await events();
      const [last, secondLast] = [all.at(-1), all.at(-2)];
      if (!last || !secondLast) throw new Error('no events');
      // Kept in the database: a round trip through JavaScript would lose the time's microseconds.
      await sql`create table audit_test_saved as select * from invoice_events where id = ${last.id}`.execute(
        db(),
      );
      await sql`delete from invoice_events where id = ${last.id}`.execute(db());
      await expectBrokenAt(secondLast, /cabeza \/ head/);
      // Put it back exactly as it was (the trigger would give it a new place in the chain).
      await db()
        .transaction()
        .execute(async (trx) => {
          await sql`set local session_replication_role = replica`.execute(trx);
          await sql`insert into invoice_events select * from audit_test_saved`.execute(trx);
        });
      await sql`drop table audit_test_saved`.execute(db());
      expect((await verify()).code).toBe(0);
    },
    TEST_MS,
  );

  it(
    'names the next row after a DELETE of a middle row',
    async () => {
      const { row, next } = await middleRow();
      await sql`delete from invoice_events where id = ${row.id}`.execute(db());
      await expectBrokenAt(next, /secuencia \/ sequence|cadena de la factura/);
    },
    TEST_MS,
  );
});
