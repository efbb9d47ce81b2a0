import type { Config } from '../../server/config';
import type { Db } from '../../server/db/database';
import type { Clock } from '../../server/modules/auth/clock';
import { startSession } from '../../server/modules/auth/session.service';
import { createTokenService } from '../../server/modules/auth/tokens';
import type { OperatorRole } from '../../src/domain/operator-roles';

export interface OperatorSession {
  userId: number;
  username: string;
  access: string;
  refresh: string;
}

let sequence = 0;

/**
 * An operator and a session for it, without the login (the login with its second factor has its own tests):
 * the user row with its roles and a session signed with the app's secret, MFA-verified unless told otherwise.
 * The password hash is not a hash, so nobody can sign in as this user with a password.
 */
export async function createOperatorSession(
  ctx: { database: { db: Db }; config: Config; now: Clock },
  options: { roles: readonly OperatorRole[]; username?: string; mfaVerified?: boolean },
): Promise<OperatorSession> {
  sequence += 1;
  const username = options.username ?? `operador.prueba.${process.pid}.${sequence}`;
  const db = ctx.database.db;
  const user = await db
    .insertInto('users')
    .values({
      username,
      email: `${username}@example.com`,
      password_hash: '!fixture-without-password',
      first_name: 'Operador',
      last_name: `Prueba ${sequence}`,
      company_id: null,
      operator_roles: [...options.roles],
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  const tokens = createTokenService({
    secret: ctx.config.jwtSecret,
    accessMinutes: ctx.config.accessTokenMinutes,
    refreshHours: ctx.config.refreshTokenHours,
    now: ctx.now,
  });
  const session = await startSession({ db, tokens, now: ctx.now }, user.id, {
    mfaVerified: options.mfaVerified ?? true,
  });
  return { userId: user.id, username, ...session };
}
