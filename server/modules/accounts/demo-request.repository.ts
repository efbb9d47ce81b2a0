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
