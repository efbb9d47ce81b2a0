import type { Db } from '../db/database';

/** Forgets spent challenges that have expired (a replay of one is refused for its expiry anyway). */
export async function deleteExpiredSpentCaptchas(db: Db, now: string): Promise<void> {
  await db.deleteFrom('captcha_spent').where('expires_at', '<', now).execute();
}

/** Records a challenge's signature as spent; false when it already was (a replay). */
export async function spendCaptcha(db: Db, signature: string, expiresAt: string): Promise<boolean> {
  const spent = await db
    .insertInto('captcha_spent')
    .values({ id: signature, expires_at: expiresAt })
    .onConflict((oc) => oc.column('id').doNothing())
    .returning('id')
    .executeTakeFirst();
  return spent !== undefined;
}
