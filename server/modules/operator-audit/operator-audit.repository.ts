import { sql } from 'kysely';
import type { OperatorActionEntry } from '../../../src/domain/schemas/operator-audit';
import type { Db } from '../../db/database';
import { containsPattern } from '../../db/like';
import { BUSINESS_TIME_ZONE } from '../../http/business-date';

export interface OperatorAuditFilter {
  operator: string | null;
  action: string | null;
  from: string | null;
  to: string | null;
  offset: number;
  limit: number;
}

/** A page of the operator audit, newest first, with the filter's count. Dates are Mexico City's calendar days. */
export async function listOperatorActions(
  db: Db,
  filter: OperatorAuditFilter,
): Promise<{ count: number; rows: OperatorActionEntry[] }> {
  let query = db.selectFrom('operator_actions');
  if (filter.operator) query = query.where('operator_username', 'ilike', containsPattern(filter.operator));
  if (filter.action) query = query.where('action', 'ilike', containsPattern(filter.action));
  const day = sql<string>`(at at time zone ${BUSINESS_TIME_ZONE})::date`;
  if (filter.from) query = query.where(day, '>=', filter.from);
  if (filter.to) query = query.where(day, '<=', filter.to);
  const counted = await query.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await query
    .select(['id', 'operator_username', 'action', 'method', 'route', 'params', 'status_code', 'reason', 'at'])
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .offset(filter.offset)
    .limit(filter.limit)
    .execute();
  return {
    count: Number(counted.n),
    rows: rows.map((row) => ({
      id: Number(row.id),
      operator_username: row.operator_username,
      action: row.action,
      method: row.method,
      route: row.route,
      params: (row.params && typeof row.params === 'object' ? row.params : {}) as Record<string, unknown>,
      status_code: row.status_code,
      reason: row.reason,
      at: new Date(row.at).toISOString(),
    })),
  };
}
