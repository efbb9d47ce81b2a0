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
