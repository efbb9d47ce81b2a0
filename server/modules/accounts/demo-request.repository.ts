import { sql } from 'kysely';
import type { DemoRequest } from '../../../src/domain/schemas/session';
import type { Db } from '../../db/database';

export async function insertDemoRequest(db: Db, request: DemoRequest, source: string): Promise<number> {
  const row = await db
    .insertInto('demo_requests')
    .values({ ...request, source })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface DemoRequestRow {
  id: number;
  first_name: string;
  last_name: string;
  phone: string;
  email: string;
  company: string;
  source: string;
  created_at: string;
}

/** The newest demo requests first: what sales follows up on (`npm run ops -- demo-requests:list`). */
export async function listDemoRequests(db: Db, limit: number): Promise<DemoRequestRow[]> {
  const rows = await db
    .selectFrom('demo_requests')
    .select(['id', 'first_name', 'last_name', 'phone', 'email', 'company', 'source', 'created_at'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({ ...row, created_at: new Date(row.created_at).toISOString() }));
}

/** One page of demo requests, newest first, with the count of all (the operator's inbox). */
export async function findDemoRequestPage(
  db: Db,
  page: { limit: number; offset: number },
): Promise<{ count: number; rows: DemoRequestRow[] }> {
  const [total, rows] = await Promise.all([
    db.selectFrom('demo_requests').select(sql<string>`count(*)`.as('n')).executeTakeFirstOrThrow(),
    db
      .selectFrom('demo_requests')
      .select(['id', 'first_name', 'last_name', 'phone', 'email', 'company', 'source', 'created_at'])
      .orderBy('id', 'desc')
      .limit(page.limit)
      .offset(page.offset)
      .execute(),
  ]);
  return { count: Number(total.n), rows };
}
