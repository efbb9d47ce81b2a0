import type { FastifyReply, FastifyRequest } from 'fastify';
import { sql } from 'kysely';
import type { IsoDate } from '../../../src/domain/calendar-date';
import type { Db } from '../../db/database';
import { sharedRead } from '../../db/shared-read';
import { type InvoiceListQuery, isBrowsing } from './invoice-list';

/**
 * Invoice lists' answers kept in this process, each served again only while the database says that nothing it
 * was made from has changed since (decision 0077).
 *
 * - Migration 031's triggers move `list_version` with every committed change to an invoice or a company, whoever
 *   makes it, in the same commit as the change.
 * - Every request reads the version after it arrived (a read shared with the requests in flight, like the session
 *   check) and is served a kept answer only if that answer was made at exactly this version. Otherwise the answer is
 *   made again, after the version was read, so what it holds is at least as new as the version it is kept under.
 * - Nothing to miss and nothing to invalidate: no notification is involved, so no process can serve an answer from
 *   before a change that committed before its request arrived.
 */
export interface ListAnswers {
  /** The answer kept for `key` if nothing changed since it was made, else `make()`'s, then kept. */
  answer(key: string, make: () => Promise<string>): Promise<string>;
  /** What was done so far (tests). */
  stats(): ListAnswerStats;
}

export interface ListAnswerStats {
  /** Served from memory. */
  hits: number;
  /** Made from the database. */
  made: number;
  entries: number;
}

/** The most answers a process keeps (about 15 KB each); the least recently served goes first. */
export const LIST_ANSWERS_KEPT = 1_000;

export function createListAnswers(db: Db, options: { kept?: number } = {}): ListAnswers {
  const kept = options.kept ?? LIST_ANSWERS_KEPT;
  // Text: pg reads bigint as a string and PGlite as a number.
  const currentVersion = sharedRead(async () => {
    const { rows } = await sql<{
      version: string;
    }>`select version::text as version from list_version where id = 1`.execute(db);
    const version = rows[0]?.version;
    if (version === undefined) throw new Error('list_version has no row');
    return version;
  });
  const entries = new Map<string, { version: string; body: string }>();
  const counters = { hits: 0, made: 0 };
  return {
    async answer(key, make) {
      if (kept === 0) {
        counters.made += 1;
        return make();
      }
      const version = await currentVersion();
      const entry = entries.get(key);
      entries.delete(key);
      if (entry?.version === version) {
        counters.hits += 1;
        entries.set(key, entry);
        return entry.body;
      }
      const body = await make();
      counters.made += 1;
      entries.set(key, { version, body });
      for (const oldest of entries.keys()) {
        if (entries.size <= kept) break;
        entries.delete(oldest);
      }
      return body;
    },
    stats: () => ({ ...counters, entries: entries.size }),
  };
}

/**
 * Replies to an invoice list request with its answer for the caller's company, kept or made by `make` and
 * serialised as the route would. The links in an answer are built from the request's origin and its
 * days_payable from `today`, so both are part of the key. Only a browsed list (no search, no period) is kept.
 */
export async function replyListAnswer(
  request: FastifyRequest,
  reply: FastifyReply,
  scope: { companyId: number; today: IsoDate; query: InvoiceListQuery },
  make: () => Promise<unknown>,
): Promise<unknown> {
  // A search or a period is typed once and refined: keeping its answer would only push out the browsed pages.
  if (!isBrowsing(scope.query)) return make();
  const key = `${scope.companyId} ${scope.today} ${request.protocol}://${request.host}${request.url}`;
  const body = await request.server.listAnswers.answer(key, async () => {
    const serialized = reply.serialize(await make());
    // Fastify's JSON serialiser gives text; a route with a serialiser of bytes would not be a list.
    if (typeof serialized !== 'string') throw new Error('an invoice list serialised to bytes');
    return serialized;
  });
  return reply.type('application/json; charset=utf-8').send(body);
}
