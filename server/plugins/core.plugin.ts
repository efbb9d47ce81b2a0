import type { FastifyPluginAsync } from 'fastify';
import type { DatabaseHandle, Db } from '../db/database';
import type { Mailer } from '../mail/mailer';
import type { Clock } from '../modules/auth/clock';
import type { ListAnswers } from '../modules/invoices/list-answers';
import type { CfdiAuthenticity } from '../modules/sat/cfdi-authenticity';

/** What every route plugin reads from the instance instead of receiving it through options. */
export interface CoreDecorations {
  /** The open database (PGlite or PostgreSQL) with its kind, for health. */
  database: DatabaseHandle;
  db: Db;
  mailer: Mailer;
  /** Injectable time: tests move it instead of sleeping. */
  clock: Clock;
  /** Public origin of the app for links in e-mails, no trailing slash (APP_BASE_URL). */
  appBaseUrl: string;
  /** What proves a CFDI (trust store and SAT's status service); every import reads it. */
  authenticity: CfdiAuthenticity;
  /** Invoice lists' answers kept while nothing they were made from changed (decision 0077). */
  listAnswers: ListAnswers;
}

declare module 'fastify' {
  interface FastifyInstance extends CoreDecorations {}
}

/**
 * Decorates the root instance with the database, the mailer, the clock and the app's origin, so a service
 * plugin (mounted alone or beside the other) and its route plugins read them from `app`.
 */
export const corePlugin: FastifyPluginAsync<CoreDecorations> = async (app, core) => {
  app.decorate('database', core.database);
  app.decorate('db', core.db);
  app.decorate('mailer', core.mailer);
  app.decorate('clock', core.clock);
  app.decorate('appBaseUrl', core.appBaseUrl);
  app.decorate('authenticity', core.authenticity);
  app.decorate('listAnswers', core.listAnswers);
};
// NOTE: Fastify encapsulates a plugin's decorations unless it is marked skip-override (what the
// fastify-plugin package sets); these must reach every sibling service, so they live on the root.
Object.assign(corePlugin, { [Symbol.for('skip-override')]: true });
