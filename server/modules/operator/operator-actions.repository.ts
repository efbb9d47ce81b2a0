import type { Db } from '../../db/database';

export interface OperatorActionRecord {
  operatorUserId: number;
  operatorUsername: string;
  action: string;
  method: string;
  route: string;
  params: Record<string, unknown>;
  statusCode: number;
  reason: string | null;
}

/** One row of the operator audit (migration 008). */
export async function insertOperatorAction(db: Db, record: OperatorActionRecord): Promise<void> {
  await db
    .insertInto('operator_actions')
    .values({
      operator_user_id: record.operatorUserId,
      operator_username: record.operatorUsername,
      action: record.action,
      method: record.method,
      route: record.route,
      params: JSON.stringify(record.params),
      status_code: record.statusCode,
      reason: record.reason,
    })
    .execute();
}
