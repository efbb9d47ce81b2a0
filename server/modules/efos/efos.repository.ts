import type { EfosEntry } from '../../cfdi/efos-list';
import { isBlockingSituation } from '../../cfdi/efos-list';
import type { Db } from '../../db/database';
import type { EfosEntriesTable } from '../../db/schema';

/** The issuers among these RFCs whose 69-B situation blocks their CFDI (Presunto, Definitivo). */
export async function blockingEfosEntries(
  db: Db,
  rfcs: readonly string[],
): Promise<Map<string, Pick<EfosEntriesTable, 'rfc' | 'situation'>>> {
  if (rfcs.length === 0) return new Map();
  const rows = await db
    .selectFrom('efos_entries')
    .select(['rfc', 'situation'])
    .where('rfc', 'in', rfcs)
    .execute();
  return new Map(rows.filter((row) => isBlockingSituation(row.situation)).map((row) => [row.rfc, row]));
}

export type EfosSituations = {
  listImportedAt: string | null;
  byRfc: Map<string, EfosEntriesTable['situation']>;
};

/** The list's date and the situations of these RFCs on it, for the desk's check and the operator's views. */
export async function efosSituations(db: Db, rfcs: readonly string[]): Promise<EfosSituations> {
  const list = await db
    .selectFrom('efos_lists')
    .select('imported_at')
    .orderBy('id', 'desc')
    .limit(1)
    .executeTakeFirst();
  const listImportedAt = list ? new Date(String(list.imported_at)).toISOString() : null;
  if (!list || rfcs.length === 0) return { listImportedAt, byRfc: new Map() };
  const rows = await db
    .selectFrom('efos_entries')
    .select(['rfc', 'situation'])
    .where('rfc', 'in', rfcs)
    .execute();
  return { listImportedAt, byRfc: new Map(rows.map((row) => [row.rfc, row.situation])) };
}

/** Replaces the whole list in the caller's transaction; returns the new list's id. */
export async function replaceEfosList(
  trx: Db,
  fileName: string,
  entries: readonly EfosEntry[],
): Promise<number> {
  await trx.deleteFrom('efos_entries').execute();
  const list = await trx
    .insertInto('efos_lists')
    .values({ file_name: fileName, entries: entries.length })
    .returning('id')
    .executeTakeFirstOrThrow();
  // Chunks keep each statement under PostgreSQL's bind-parameter limit (65,535).
  for (let start = 0; start < entries.length; start += EFOS_INSERT_CHUNK) {
    await trx
      .insertInto('efos_entries')
      .values(
        entries.slice(start, start + EFOS_INSERT_CHUNK).map((entry) => ({
          rfc: entry.rfc,
          list_id: list.id,
          name: entry.name,
          situation: entry.situation,
        })),
      )
      .execute();
  }
  return list.id;
}

const EFOS_INSERT_CHUNK = 5_000;

/** A company that supplies a corporate under an alliance (pending ones aside) and whose RFC is on the 69-B list. */
export interface ListedProvider {
  companyId: number;
  rfc: string;
  name: string;
  situation: EfosEntriesTable['situation'];
}

/** Every allied provider on the current list, whatever its situation, by company id. */
export async function listedAlliedProviders(db: Db): Promise<ListedProvider[]> {
  return db
    .selectFrom('efos_entries as e')
    .innerJoin('companies as c', 'c.rfc', 'e.rfc')
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('alliances as a').select('a.id').whereRef('a.provider_id', '=', 'c.id')),
    )
    .select(['c.id as companyId', 'e.rfc', 'c.name', 'e.situation'])
    .orderBy('c.id')
    .execute();
}

/** One company's standing on the list, as the operator's views show it. */
export async function efosStandingOf(
  db: Db,
  rfc: string | null,
): Promise<{ list_imported_at: string | null; situation: EfosEntriesTable['situation'] | null }> {
  const found = await efosSituations(db, rfc ? [rfc] : []);
  return { list_imported_at: found.listImportedAt, situation: rfc ? (found.byRfc.get(rfc) ?? null) : null };
}
