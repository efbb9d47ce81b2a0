import { sql } from 'kysely';
import type { IsoDate } from '../../../src/domain/calendar-date';
import type { Db } from '../../db/database';
import { BUSINESS_TIME_ZONE } from '../../http/business-date';

/** Whose events an export reads: a company's issued (emitter) or received (receiver) invoices, or all (operator). */
export type AuditTrailScope = { companyId: number; side: 'emitter' | 'receiver' } | { all: true };

/** One event of the export, with what its row shows. */
export interface AuditTrailRow {
  id: number;
  folio: string | null;
  uuid: string;
  fromStatus: number | null;
  toStatus: number;
  actor: string;
  /** The acting user's company; null for the SAT sync, the operator and other system actors. */
  actorCompany: string | null;
  reason: string | null;
  /** Mexico City wall time, 'YYYY-MM-DD HH:MM:SS'. */
  at: string;
  /** The row's stored hash (hex), as the chain holds it. */
  hash: string;
  emitterName: string;
  receiverName: string;
}

/**
 * A page of the scope's events in the date range (both days included, Mexico City's calendar), in event id
 * order after `afterId`. Keyset pages keep an export's memory bounded; all pages together read the event table
 * once in id order.
 */
export async function auditTrailPage(
  db: Db,
  scope: AuditTrailScope,
  range: { from: IsoDate; to: IsoDate },
  afterId: number,
  limit: number,
): Promise<AuditTrailRow[]> {
  let query = db
    .selectFrom('invoice_events as e')
    .innerJoin('invoices as i', 'i.id', 'e.invoice_id')
    .leftJoin('users as u', 'u.id', 'e.actor_user_id')
    .leftJoin('companies as c', 'c.id', 'u.company_id')
    .select([
      'e.id',
      sql<string | null>`nullif(concat_ws('-', i.serie, i.folio), '')`.as('folio'),
      'i.cfdi_uuid as uuid',
      'e.from_status as fromStatus',
      'e.to_status as toStatus',
      'e.actor',
      'c.name as actorCompany',
      'e.reason',
      sql<string>`to_char(e.at at time zone ${BUSINESS_TIME_ZONE}, 'YYYY-MM-DD HH24:MI:SS')`.as('at'),
      sql<string>`encode(e.hash, 'hex')`.as('hash'),
      'i.emitter_name as emitterName',
      'i.receiver_name as receiverName',
    ])
    .where('e.id', '>', afterId)
    .where(sql<boolean>`e.at >= (${range.from}::date)::timestamp at time zone ${BUSINESS_TIME_ZONE}`)
    .where(sql<boolean>`e.at < (${range.to}::date + 1)::timestamp at time zone ${BUSINESS_TIME_ZONE}`);
  if (!('all' in scope)) {
    query = query.where(
      scope.side === 'emitter' ? 'i.emitter_company_id' : 'i.receiver_company_id',
      '=',
      scope.companyId,
    );
  }
  return query.orderBy('e.id').limit(limit).execute();
}
