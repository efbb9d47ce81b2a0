import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { initialSchema } from './migrations/001-initial-schema';
import { sessionsAndAccounts } from './migrations/002-sessions-and-accounts';
import { corporateQuotations } from './migrations/003-corporate-quotations';
import { factoringAndStatements } from './migrations/004-factoring-and-statements';
import { scaleIndexes } from './migrations/005-scale-indexes';
import { jobsAndMailQueue } from './migrations/006-jobs-and-mail-queue';
import { auditChain } from './migrations/007-audit-chain';
import { backOfficeFoundation } from './migrations/008-back-office-foundation';
import { corporateOnboarding } from './migrations/009-corporate-onboarding';
import { creditProgrammes } from './migrations/010-credit-programmes';
import { operatorAlliances } from './migrations/011-operator-alliances';
import { controlDesk } from './migrations/012-control-desk';
import { cfdiProof } from './migrations/013-cfdi-proof';
import { corporateAccess } from './migrations/014-corporate-access';
import { twoPersonMoney } from './migrations/015-two-person-money';
import { keyedRecoveryCodes } from './migrations/016-keyed-recovery-codes';
import { satLinkClaims } from './migrations/019-sat-link-claims';
import { pesoValueTotals } from './migrations/020-peso-value-totals';
import { maturities } from './migrations/021-maturities';
import { maturityNotices } from './migrations/022-maturity-notices';
import { bankStatement } from './migrations/023-bank-statement';
import { delinquency } from './migrations/024-delinquency';
import { exposureCaps } from './migrations/025-exposure-caps';
import { paymentComplements } from './migrations/026-payment-complements';
import { monthlyStatements } from './migrations/027-monthly-statements';
import { sessionChanges } from './migrations/028-session-changes';
import { searchWords } from './migrations/029-search-words';
import { searchWordSums } from './migrations/030-search-word-sums';
import { listChanges } from './migrations/031-list-changes';

// Migrations live in code (not read from disk by name) so tsx, tests and builds all see the same list.
function statements(list: readonly string[]): Migration {
  return {
    async up(db) {
      for (const statement of list) await sql.raw(statement).execute(db);
    },
  };
}

const MIGRATIONS: Record<string, Migration> = {
  '001-initial-schema': statements(initialSchema),
  '002-sessions-and-accounts': statements(sessionsAndAccounts),
  '003-corporate-quotations': statements(corporateQuotations),
  '004-factoring-and-statements': statements(factoringAndStatements),
  '005-scale-indexes': statements(scaleIndexes),
  '006-jobs-and-mail-queue': statements(jobsAndMailQueue),
  '007-audit-chain': statements(auditChain),
  '008-back-office-foundation': statements(backOfficeFoundation),
  '009-corporate-onboarding': statements(corporateOnboarding),
  '010-credit-programmes': statements(creditProgrammes),
  '011-operator-alliances': statements(operatorAlliances),
  '012-control-desk': statements(controlDesk),
  '013-cfdi-proof': statements(cfdiProof),
  '014-corporate-access': statements(corporateAccess),
  '015-two-person-money': statements(twoPersonMoney),
  '016-keyed-recovery-codes': statements(keyedRecoveryCodes),
  '019-sat-link-claims': statements(satLinkClaims),
  '020-peso-value-totals': statements(pesoValueTotals),
  '021-maturities': maturities,
  '022-maturity-notices': statements(maturityNotices),
  '023-bank-statement': bankStatement,
  '024-delinquency': statements(delinquency),
  '025-exposure-caps': statements(exposureCaps),
  '026-payment-complements': statements(paymentComplements),
  '027-monthly-statements': statements(monthlyStatements),
  '028-session-changes': statements(sessionChanges),
  '029-search-words': statements(searchWords),
  '030-search-word-sums': statements(searchWordSums),
  '031-list-changes': statements(listChanges),
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  // Kysely looks for its bookkeeping tables in every schema unless told which one: with one schema per
  // test file on a shared PostgreSQL (TEST_DATABASE_URL), another file's tables would be taken for ours.
  const { rows } = await sql<{ schema: string }>`select current_schema() as schema`.execute(db);
  const migrationTableSchema = rows[0]?.schema;
  const { error, results } = await new Migrator({ db, provider, migrationTableSchema }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
