import type { Db } from '../../db/database';

export interface RefreshTokenRow {
  id: string;
  user_id: number;
  family_id: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
  mfa_verified: boolean;
}

export async function insertRefreshToken(
  db: Db,
  row: { id: string; userId: number; familyId: string; expiresAt: Date; mfaVerified?: boolean },
): Promise<void> {
  await db
    .insertInto('refresh_tokens')
    .values({
      id: row.id,
      user_id: row.userId,
      family_id: row.familyId,
      expires_at: row.expiresAt.toISOString(),
      mfa_verified: row.mfaVerified ?? false,
    })
    .execute();
}

/** The row, locked until the transaction ends so two refreshes of one token cannot both succeed. */
export function lockRefreshToken(trx: Db, id: string): Promise<RefreshTokenRow | undefined> {
  return trx
    .selectFrom('refresh_tokens')
    .select(['id', 'user_id', 'family_id', 'expires_at', 'used_at', 'revoked_at', 'mfa_verified'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function markRefreshTokenUsed(trx: Db, id: string, at: Date): Promise<void> {
  await trx.updateTable('refresh_tokens').set({ used_at: at.toISOString() }).where('id', '=', id).execute();
}

export async function revokeFamily(db: Db, familyId: string, at: Date): Promise<void> {
  await db
    .updateTable('refresh_tokens')
    .set({ revoked_at: at.toISOString() })
    .where('family_id', '=', familyId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revokes every live refresh token of the user, except those of `keepFamilyId` when given. */
export async function revokeUserRefreshTokens(
  db: Db,
  userId: number,
  at: Date,
  keepFamilyId: string | null = null,
): Promise<number> {
  let query = db
    .updateTable('refresh_tokens')
    .set({ revoked_at: at.toISOString() })
    .where('user_id', '=', userId)
    .where('revoked_at', 'is', null);
  if (keepFamilyId !== null) query = query.where('family_id', '<>', keepFamilyId);
  const result = await query.executeTakeFirst();
  return Number(result.numUpdatedRows);
}
