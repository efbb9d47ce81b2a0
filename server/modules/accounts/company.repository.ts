import type { Db } from '../../db/database';

/** The companies holding these RFCs (id, RFC and whether each is a corporate). */
export function findCompaniesByRfc(db: Db, rfcs: readonly string[]) {
  return db.selectFrom('companies').select(['id', 'rfc', 'is_corporate']).where('rfc', 'in', rfcs).execute();
}
