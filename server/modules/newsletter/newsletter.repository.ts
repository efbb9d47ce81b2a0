import { sql } from 'kysely';
import type { Db } from '../../db/database';

/**
 * Stores a subscription once per address, whatever its letter case (the unique index is on lower(email)).
 * Returns false when the address was already subscribed.
 */
export async function insertSubscription(db: Db, email: string): Promise<boolean> {
  const row = await db
    .insertInto('newsletter_subscriptions')
    .values({ email })
    .onConflict((conflict) => conflict.expression(sql`lower(email)`).doNothing())
    .returning('id')
    .executeTakeFirst();
  return row !== undefined;
}
