import type { Db } from '../../db/database';

/** The companies holding these RFCs (id, RFC and whether each is a corporate). */
export function findCompaniesByRfc(db: Db, rfcs: readonly string[]) {
  return db.selectFrom('companies').select(['id', 'rfc', 'is_corporate']).where('rfc', 'in', rfcs).execute();
}

/** The company's credit line, what it has used of it, its SPEI balance and whether it has factoring. */
export function findCompanyBalances(db: Db, companyId: number) {
  return db
    .selectFrom('companies')
    .select(['credit_line', 'credit_used', 'spei_balance', 'has_factoring'])
    .where('id', '=', companyId)
    .executeTakeFirstOrThrow();
}
