// @postgresql: named prepared statements live on PostgreSQL's connections; PGlite runs every statement unnamed.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PREPARED } from '../../server/db/database';
import {
  type InvoiceListQuery,
  type InvoiceListScope,
  listInvoices,
} from '../../server/modules/invoices/invoice-list';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { DEMO_PROVIDER } from '../support/pronto-pago';

// Decision 0076: a list without a search runs as a named prepared statement on PostgreSQL, so each connection
// parses and plans it once; a search never does (its good plan depends on the pattern).

describe('a list statement prepared per connection', () => {
  let ctx: ApiTestContext;
  let scope: InvoiceListScope;
  const browsing: InvoiceListQuery = {
    search: '',
    periods: [],
    status: InvoiceStatus.ALL,
    page: 1,
    pageSize: 25,
  };

  beforeAll(async () => {
    ctx = await createApiApp();
    const company = await ctx.database.db
      .selectFrom('companies')
      .select('id')
      .where('rfc', '=', DEMO_PROVIDER.rfc)
      .executeTakeFirstOrThrow();
    scope = { companyId: company.id, side: 'emitter', today: '2026-11-29' };
  });
  afterAll(() => ctx.close());

  it('keeps the list without a search prepared on PostgreSQL, and not a search, with the same rows', async () => {
    await ctx.database.db.connection().execute(async (connection) => {
      const prepared = async () =>
        (
          await sql<{ name: string; statement: string; generic_plans: string }>`
            select name, statement, generic_plans from pg_prepared_statements order by name`.execute(
            connection,
          )
        ).rows;
      const before = await prepared();
      const first = await listInvoices(connection, scope, browsing, { balances: true });
      const again = await listInvoices(connection, scope, browsing, { balances: true });
      expect(again).toEqual(first);
      expect(first.rows.length).toBeGreaterThan(0);
      const afterList = await prepared();
      const searched = await listInvoices(
        connection,
        scope,
        { ...browsing, search: 'a' },
        { balances: true },
      );
      expect(searched.rows.length).toBeGreaterThan(0);
      const afterSearch = await prepared();
      if (ctx.database.kind === 'postgresql') {
        const added = afterList.filter((row) => !before.some((old) => old.name === row.name));
        expect(added).toHaveLength(1);
        expect(added[0]?.name).toMatch(/^flujo_/);
        expect(added[0]?.statement.startsWith(PREPARED)).toBe(true);
        // After five custom plans PostgreSQL settles on the generic one: the list is planned no more.
        for (let run = 0; run < 6; run += 1)
          await listInvoices(connection, scope, browsing, { balances: true });
        const settled = (await prepared()).find((row) => row.name === added[0]?.name);
        expect(Number(settled?.generic_plans)).toBeGreaterThan(0);
      } else {
        expect(afterList).toEqual(before);
      }
      expect(afterSearch.map((row) => row.name)).toEqual(afterList.map((row) => row.name));
    });
  });
});
