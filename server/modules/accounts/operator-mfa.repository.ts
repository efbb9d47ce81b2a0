import type { Db } from '../../db/database';

// SQL of the operators' second factor (migration 008): the TOTP secret and its lock, the recovery codes and the
// login challenges between the password and the code.

export interface OperatorTotpRow {
  user_id: number;
  secret_encrypted: string;
  failed_attempts: number;
  locked_until: string | null;
  last_step: number | null;
}

export async function upsertOperatorTotp(db: Db, userId: number, secretEncrypted: string): Promise<void> {
  await db
    .insertInto('operator_totp')
    .values({ user_id: userId, secret_encrypted: secretEncrypted })
    .onConflict((oc) =>
      oc.column('user_id').doUpdateSet({
        secret_encrypted: secretEncrypted,
        confirmed_at: null,
        failed_attempts: 0,
        locked_until: null,
        last_step: null,
      }),
    )
    .execute();
}

/** The row, locked until the transaction ends: two codes sent at once are checked one after the other. */
export async function lockOperatorTotp(trx: Db, userId: number): Promise<OperatorTotpRow | undefined> {
  const row = await trx
    .selectFrom('operator_totp')
    .select(['user_id', 'secret_encrypted', 'failed_attempts', 'locked_until', 'last_step'])
    .where('user_id', '=', userId)
    .forUpdate()
    .executeTakeFirst();
  return row && { ...row, last_step: row.last_step === null ? null : Number(row.last_step) };
}

export async function findOperatorLock(db: Db, userId: number): Promise<string | null | undefined> {
  const row = await db
    .selectFrom('operator_totp')
    .select('locked_until')
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return row?.locked_until;
}

/** A right code: failures forgotten, the step remembered (never accepted again), enrolment confirmed. */
export async function recordTotpSuccess(
  trx: Db,
  userId: number,
  at: Date,
  step: number | null,
): Promise<void> {
  await trx
    .updateTable('operator_totp')
    .set((eb) => ({
      failed_attempts: 0,
      locked_until: null,
      confirmed_at: eb.fn.coalesce('confirmed_at', eb.val(at.toISOString())),
      ...(step === null ? {} : { last_step: step }),
    }))
    .where('user_id', '=', userId)
    .execute();
}

export async function recordTotpFailure(
  trx: Db,
  userId: number,
  failedAttempts: number,
  lockedUntil: Date | null,
): Promise<void> {
  await trx
    .updateTable('operator_totp')
    .set({ failed_attempts: failedAttempts, locked_until: lockedUntil?.toISOString() ?? null })
    .where('user_id', '=', userId)
    .execute();
}

export async function replaceRecoveryCodes(
  db: Db,
  userId: number,
  codeHashes: readonly string[],
): Promise<void> {
  await db.deleteFrom('operator_recovery_codes').where('user_id', '=', userId).execute();
  await db
    .insertInto('operator_recovery_codes')
    .values(codeHashes.map((code_hash) => ({ user_id: userId, code_hash })))
    .execute();
}

/** Spends an unused recovery code of the user; false when there is none with that hash. */
export async function spendRecoveryCode(
  trx: Db,
  userId: number,
  codeHash: string,
  at: Date,
): Promise<boolean> {
  const result = await trx
    .updateTable('operator_recovery_codes')
    .set({ used_at: at.toISOString() })
    .where('user_id', '=', userId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function insertMfaChallenge(
  db: Db,
  row: { id: string; userId: number; expiresAt: Date },
): Promise<void> {
  await db
    .insertInto('mfa_challenges')
    .values({ id: row.id, user_id: row.userId, expires_at: row.expiresAt.toISOString() })
    .execute();
}

export interface MfaChallengeRow {
  id: string;
  user_id: number;
  expires_at: string;
  used_at: string | null;
  attempts: number;
}

export function lockMfaChallenge(trx: Db, id: string): Promise<MfaChallengeRow | undefined> {
  return trx
    .selectFrom('mfa_challenges')
    .select(['id', 'user_id', 'expires_at', 'used_at', 'attempts'])
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
}

export async function updateMfaChallenge(
  trx: Db,
  id: string,
  change: { attempts: number; usedAt: Date | null },
): Promise<void> {
  await trx
    .updateTable('mfa_challenges')
    .set({ attempts: change.attempts, used_at: change.usedAt?.toISOString() ?? null })
    .where('id', '=', id)
    .execute();
}

/** Ends the user's challenges still waiting for a code: they were started against the replaced enrolment. */
export async function endPendingMfaChallenges(db: Db, userId: number, at: Date): Promise<void> {
  await db
    .updateTable('mfa_challenges')
    .set({ used_at: at.toISOString() })
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .execute();
}

/** Who an operator is, for the session answer. */
export function findOperatorIdentity(
  db: Db,
  userId: number,
): Promise<
  { username: string; first_name: string; last_name: string; operator_roles: string[] } | undefined
> {
  return db
    .selectFrom('users')
    .select(['username', 'first_name', 'last_name', 'operator_roles'])
    .where('id', '=', userId)
    .executeTakeFirst();
}
