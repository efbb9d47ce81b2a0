import type { Db } from '../../db/database';

export interface ResetTokenRow {
  id: number;
  user_id: number;
  expires_at: string;
  used_at: string | null;
  username: string;
  email: string;
  first_name: string;
  last_name: string;
  is_active: boolean;
}

export async function insertResetToken(
  db: Db,
  row: { userId: number; tokenHash: string; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('password_reset_tokens')
    .values({ user_id: row.userId, token_hash: row.tokenHash, expires_at: row.expiresAt.toISOString() })
    .execute();
}

export function findResetToken(db: Db, tokenHash: string, lock = false): Promise<ResetTokenRow | undefined> {
  let query = db
    .selectFrom('password_reset_tokens')
    .innerJoin('users', 'users.id', 'password_reset_tokens.user_id')
    .select([
      'password_reset_tokens.id',
      'password_reset_tokens.user_id',
      'password_reset_tokens.expires_at',
      'password_reset_tokens.used_at',
      'users.username',
      'users.email',
      'users.first_name',
      'users.last_name',
      'users.is_active',
    ])
    .where('password_reset_tokens.token_hash', '=', tokenHash);
  if (lock) query = query.forUpdate();
  return query.executeTakeFirst();
}

/** Spends every open link of the user: one reset ends them all. */
export async function spendUserResetTokens(db: Db, userId: number, at: Date): Promise<void> {
  await db
    .updateTable('password_reset_tokens')
    .set({ used_at: at.toISOString() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}
