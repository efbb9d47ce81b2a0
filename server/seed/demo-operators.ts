import type { OperatorRole } from '../../src/domain/operator-roles';
import type { Db } from '../db/database';
import { inTransaction } from '../db/transaction';
import { enrolOperatorTotp, storeRecoveryCodes } from '../modules/accounts/operator-enrolment.service';
import { hashPassword } from '../modules/accounts/password';
import { DEMO_PASSWORD } from './demo-world';

// The demo world's operators (README "Demo"): known password and fixed TOTP secrets, so anyone trying the back
// office can add them to an authenticator app (or compute a code) without running operator:create. A seed of
// its own, so a database that already holds the demo world gains them on the next demo:load or start.
export const DEMO_OPERATORS_SEED = 'demo-operators-v1';
// Migration 016 dropped the recovery codes stored before they were keyed (decision 0060): a database seeded
// before it gets the demo operators' codes back, under this server's key.
export const DEMO_OPERATOR_CODES_SEED = 'demo-operator-codes-v2';

export interface DemoOperator {
  username: string;
  email: string;
  firstName: string;
  lastName: string;
  roles: OperatorRole[];
  /** Base32 TOTP secret; public on purpose, like the demo password. */
  secret: string;
  recoveryCodes: string[];
}

/** 'OPE00-DEMO0-OPE00-DEMO0' … 'OPE09-DEMO9-OPE09-DEMO9': the shape of real codes (four groups of five). */
const recoveryCodes = (prefix: string): string[] =>
  Array.from({ length: 10 }, (_, i) => {
    const half = `${prefix}${String(i).padStart(2, '0')}-DEMO${i}`;
    return `${half}-${half}`;
  });

export const DEMO_OPERATORS: readonly DemoOperator[] = [
  {
    username: 'operador.demo',
    email: 'operador.demo@flujo.mx',
    firstName: 'Andrea',
    lastName: 'Villaseñor',
    roles: ['analista', 'tesoreria'],
    secret: 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP',
    recoveryCodes: recoveryCodes('OPE'),
  },
  {
    username: 'aprobador.demo',
    email: 'aprobador.demo@flujo.mx',
    firstName: 'Tomás',
    lastName: 'Echeverría',
    roles: ['aprobador'],
    secret: 'KRUGKIDROVUWG2ZAMJZG653OEBTG66BA',
    recoveryCodes: recoveryCodes('APR'),
  },
  {
    username: 'auditor.demo',
    email: 'auditor.demo@flujo.mx',
    firstName: 'Elena',
    lastName: 'Garza',
    roles: ['auditor'],
    secret: 'MFRGGZDFMZTWQ2LKNNWG23TPOBYXE43U',
    recoveryCodes: recoveryCodes('AUD'),
  },
];

/**
 * Adds the demo operators once (seeds row DEMO_OPERATORS_SEED). `secretKey` seals their TOTP secrets
 * (SAT_ENCRYPTION_KEY): the server's own key, or the tests' fixed one for the test template.
 */
export async function seedDemoOperators(db: Db, secretKey: Buffer): Promise<{ created: boolean }> {
  const passwordHash = await hashPassword(DEMO_PASSWORD);
  return inTransaction(db, async (trx) => {
    const claim = async (name: string) =>
      (await trx
        .insertInto('seeds')
        .values({ name })
        .onConflict((oc) => oc.column('name').doNothing())
        .returning('name')
        .executeTakeFirst()) !== undefined;
    const rekey = await claim(DEMO_OPERATOR_CODES_SEED);
    if (!(await claim(DEMO_OPERATORS_SEED))) {
      if (rekey) await restoreDemoRecoveryCodes(trx, secretKey);
      return { created: false };
    }
    for (const operator of DEMO_OPERATORS) {
      const row = await trx
        .insertInto('users')
        .values({
          username: operator.username,
          email: operator.email,
          password_hash: passwordHash,
          first_name: operator.firstName,
          last_name: operator.lastName,
          operator_roles: operator.roles,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await enrolOperatorTotp(
        trx,
        secretKey,
        { id: row.id, username: operator.username },
        operator.secret,
        operator.recoveryCodes,
      );
    }
    return { created: true };
  });
}

/** The demo operators' fixed recovery codes again, for those still in the database. */
async function restoreDemoRecoveryCodes(db: Db, secretKey: Buffer): Promise<void> {
  for (const operator of DEMO_OPERATORS) {
    const user = await db
      .selectFrom('users')
      .select('id')
      .where('username', '=', operator.username)
      .executeTakeFirst();
    if (user) await storeRecoveryCodes(db, secretKey, user.id, operator.recoveryCodes);
  }
}
