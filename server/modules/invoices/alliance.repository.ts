import type { Db } from '../../db/database';

/** The max_rate of the active alliance between a corporate and one of its providers, or null when there is none. */
export async function findActiveAllianceRate(
  db: Db,
  corporateId: number,
  providerId: number,
): Promise<string | null> {
  const alliance = await db
    .selectFrom('alliances')
    .select('max_rate')
    .where('corporate_id', '=', corporateId)
    .where('provider_id', '=', providerId)
    .where('is_active', '=', true)
    .executeTakeFirst();
  return alliance?.max_rate ?? null;
}

/** Creates the alliance unless the pair already has one (active or not); true when it was created. */
export async function insertAllianceIfMissing(
  db: Db,
  alliance: { corporateId: number; providerId: number; maxRate: string },
): Promise<boolean> {
  const created = await db
    .insertInto('alliances')
    .values({
      corporate_id: alliance.corporateId,
      provider_id: alliance.providerId,
      max_rate: alliance.maxRate,
    })
    .onConflict((oc) => oc.columns(['corporate_id', 'provider_id']).doNothing())
    .returning('id')
    .executeTakeFirst();
  return created !== undefined;
}

/**
 * The active alliance's max_rate and the days it finances (null: unbounded, an alliance made before the
 * operator's prices, decision 0053), or null when there is none.
 */
export async function findActiveAllianceTerms(
  db: Db,
  corporateId: number,
  providerId: number,
): Promise<{ maxRate: string; maxDays: number | null } | null> {
  const alliance = await db
    .selectFrom('alliances')
    .select(['max_rate', 'max_days'])
    .where('corporate_id', '=', corporateId)
    .where('provider_id', '=', providerId)
    .where('is_active', '=', true)
    .executeTakeFirst();
  return alliance ? { maxRate: alliance.max_rate, maxDays: alliance.max_days } : null;
}
