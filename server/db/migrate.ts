import { type Kysely, type Migration, type MigrationProvider, Migrator, sql } from 'kysely';
import { initialSchema } from './migrations/001-initial-schema';

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
};

const provider: MigrationProvider = { getMigrations: async () => MIGRATIONS };

export async function migrateToLatest<T>(db: Kysely<T>): Promise<void> {
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
