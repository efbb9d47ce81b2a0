// @postgresql: the session cache listens with PostgreSQL's LISTEN/NOTIFY on its own connection (in-process on PGlite).
import type { FastifyInstance } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import type { Config } from '../../server/config';
import type { DatabaseHandle, NotificationHandlers } from '../../server/db/database';
import { bearer, DEMO_PASSWORD, type Session, sessionFor } from '../support/accounts';
import { testConfig } from '../support/api-app';
import { createOperatorSession } from '../support/operator';
import { createTestDatabase } from '../support/test-database';

const LIST = '/api/providers/alliances/?page=1&page_size=25';
const PROVIDER = 'proveedor.demo';

/**
 * Two apps on one database, as two processes behind the proxy are (each its own session cache). The second
 * one's notifications pass through `gate`, so a test can lose some, or the listening connection, on purpose.
 */
describe('sessions cached per process: a revocation answers on the very next request everywhere', () => {
  let database: DatabaseHandle;
  let config: Config;
  let one: FastifyInstance;
  let two: FastifyInstance;
  const gate = {
    drop: false,
    handlers: null as NotificationHandlers | null,
  };

  const startApp = async (handle: DatabaseHandle) => {
    const app = await buildApp({ database: handle, config, pause: async () => {} });
    await app.ready();
    await app.sessionCache.listening();
    return app;
  };
  const startSecond = () =>
    startApp({
      ...database,
      listen: (channel, handlers) => {
        gate.handlers = handlers;
        return database.listen(channel, {
          ...handlers,
          message: (payload) => {
            if (!gate.drop) handlers.message(payload);
          },
        });
      },
    });

  beforeAll(async () => {
    database = await createTestDatabase();
    config = testConfig();
    one = await startApp(database);
    two = await startSecond();
  });
  afterAll(async () => {
    await one.close();
    await two.close();
    await database.close();
  });

  const list = (app: FastifyInstance, session: Session | string) =>
    app.inject({ method: 'GET', url: LIST, headers: bearer(session) });

  const logout = (app: FastifyInstance, session: Session) =>
    app.inject({ method: 'POST', url: '/api/accounts/logout/', headers: bearer(session) });

  /** A session the second app has in memory: its second call is answered from the cache. */
  const cachedOnTwo = async (session: Session | string) => {
    expect((await list(two, session)).statusCode).toBe(200);
    const hits = two.sessionCache.stats().hits;
    expect((await list(two, session)).statusCode).toBe(200);
    expect(two.sessionCache.stats().hits).toBe(hits + 1);
  };

  it('serves a live session from memory and still answers for it', async () => {
    const session = await sessionFor(one, PROVIDER);
    await cachedOnTwo(session);
    expect((await list(two, session)).json()).toMatchObject({ count: expect.any(Number) });
  });

  it('a logout on one process: the other refuses the access token on its next request', async () => {
    const session = await sessionFor(one, PROVIDER);
    await cachedOnTwo(session);
    expect((await logout(one, session)).statusCode).toBe(204);
    expect((await list(two, session)).statusCode).toBe(401);
  });

  it('a refresh token used twice on one process ends that login on the other', async () => {
    const session = await sessionFor(one, PROVIDER);
    await cachedOnTwo(session);
    const refresh = () =>
      one.inject({
        method: 'POST',
        url: '/api/accounts/token/refresh/',
        payload: { refresh: session.refresh },
      });
    expect((await refresh()).statusCode).toBe(200);
    expect((await refresh()).statusCode).toBe(401);
    expect((await list(two, session)).statusCode).toBe(401);
  });

  it('a disabled user, whoever writes it: the next request is refused, and allowed again once enabled', async () => {
    const session = await sessionFor(one, PROVIDER);
    await cachedOnTwo(session);
    await database.db
      .updateTable('users')
      .set({ is_active: false })
      .where('username', '=', PROVIDER)
      .execute();
    try {
      expect((await list(two, session)).statusCode).toBe(401);
    } finally {
      await database.db
        .updateTable('users')
        .set({ is_active: true })
        .where('username', '=', PROVIDER)
        .execute();
    }
    expect((await list(two, session)).statusCode).toBe(200);
  });

  it("an operator's roles taken away on one process refuse the very next request on the other", async () => {
    const operator = await createOperatorSession(
      { database, config, now: () => new Date() },
      { roles: ['auditor'] },
    );
    const audit = () =>
      two.inject({ method: 'GET', url: '/api/operator/audit/', headers: bearer(operator.access) });
    expect((await audit()).statusCode).toBe(200);
    const hits = two.sessionCache.stats().hits;
    expect((await audit()).statusCode).toBe(200);
    expect(two.sessionCache.stats().hits).toBe(hits + 1);
    await database.db
      .updateTable('users')
      .set({ operator_roles: [] })
      .where('id', '=', operator.userId)
      .execute();
    expect((await audit()).statusCode).toBe(403);
  });

  it('fails closed on a lost notification: the version check reads the database, then the cache starts over', async () => {
    const session = await sessionFor(one, PROVIDER);
    await cachedOnTwo(session);
    const resets = two.sessionCache.stats().resets;
    gate.drop = true;
    try {
      expect((await logout(one, session)).statusCode).toBe(204);
      // The logout's notification never reaches the second app, yet its next request is refused.
      expect((await list(two, session)).statusCode).toBe(401);
    } finally {
      gate.drop = false;
    }
    // The next change's number skips the lost one: everything cached is dropped.
    const other = await sessionFor(one, PROVIDER);
    await logout(one, other);
    // A bound for a loaded machine, not an expectation: the notification comes as soon as the logout commits.
    await expect.poll(() => two.sessionCache.stats().resets, { timeout: 60_000 }).toBeGreaterThan(resets);
    expect(two.sessionCache.stats().entries).toBe(0);
  });

  it('reads the database while not listening, and starts from empty when listening again', async () => {
    const session = await sessionFor(one, PROVIDER);
    await cachedOnTwo(session);
    const handlers = gate.handlers;
    if (!handlers) throw new Error('the second app did not listen');
    handlers.lost();
    expect(two.sessionCache.stats()).toMatchObject({ listening: false, entries: 0 });
    expect((await logout(one, session)).statusCode).toBe(204);
    expect((await list(two, session)).statusCode).toBe(401);
    const fresh = await sessionFor(one, PROVIDER);
    const hits = two.sessionCache.stats().hits;
    expect((await list(two, fresh)).statusCode).toBe(200);
    expect((await list(two, fresh)).statusCode).toBe(200);
    expect(two.sessionCache.stats().hits).toBe(hits);
    handlers.ready();
    await two.sessionCache.listening();
    await cachedOnTwo(fresh);
  });

  it.runIf(onPostgresql())(
    'PostgreSQL: the listening connection killed, the process listens again and a revocation still answers at once',
    async () => {
      const session = await sessionFor(one, PROVIDER);
      await cachedOnTwo(session);
      // Every listener of this test's schema (both apps); other test files' have their own channel.
      const channel = await sql<{
        channel: string;
      }>`select 'flujo_session_' || current_schema() as channel`.execute(database.db);
      await sql`select pg_terminate_backend(pid) from pg_stat_activity
        where application_name = ${`flujo ${channel.rows[0]?.channel}`.slice(0, 63)}`.execute(database.db);
      expect((await logout(one, session)).statusCode).toBe(204);
      expect((await list(two, session)).statusCode).toBe(401);
      await two.sessionCache.listening();
      await one.sessionCache.listening();
      await cachedOnTwo(await sessionFor(one, PROVIDER));
    },
  );

  it('a database whose version went back (restored from a backup) is trusted no more than a lost notification', async () => {
    const session = await sessionFor(one, PROVIDER);
    await cachedOnTwo(session);
    await database.db.updateTable('session_version').set({ version: 0 }).where('id', '=', 1).execute();
    // The logout's notification carries a number the second app has seen already.
    expect((await logout(one, session)).statusCode).toBe(204);
    expect((await list(two, session)).statusCode).toBe(401);
    await cachedOnTwo(await sessionFor(one, PROVIDER));
  });

  it('a restarted process keeps answering live sessions and refusing revoked ones', async () => {
    const kept = await sessionFor(one, PROVIDER);
    const ended = await sessionFor(one, PROVIDER);
    await cachedOnTwo(kept);
    await two.close();
    two = await startSecond();
    expect((await list(two, kept)).statusCode).toBe(200);
    await logout(one, ended);
    expect((await list(two, ended)).statusCode).toBe(401);
    await cachedOnTwo(kept);
  });

  it('a password change ends the other logins of that user on every process, and keeps the one that changed it', async () => {
    const changer = await sessionFor(one, PROVIDER);
    const elsewhere = await sessionFor(one, PROVIDER);
    await cachedOnTwo(changer);
    await cachedOnTwo(elsewhere);
    const change = await one.inject({
      method: 'POST',
      url: '/api/accounts/update-password/',
      headers: bearer(changer),
      payload: {
        old_password: DEMO_PASSWORD,
        new_password1: 'Mezquite-Dorado-84',
        new_password2: 'Mezquite-Dorado-84',
      },
    });
    expect(change.statusCode).toBe(200);
    expect((await list(two, elsewhere)).statusCode).toBe(401);
    expect((await list(two, changer)).statusCode).toBe(200);
  });
});

function onPostgresql(): boolean {
  return Boolean(process.env.TEST_DATABASE_URL);
}
