import { createHash } from 'node:crypto';
import { MESSAGES } from '../../../src/domain/schemas/fields';
import { MAX_FORM_DEPTH } from '../../../src/domain/schemas/validate';
import type { Db } from '../../db/database';
import { rollbackToSavepoint, savepoint } from '../../db/transaction';
import {
  claimIdempotencyKey,
  deleteIdempotencyKeysBefore,
  findIdempotencyKey,
  storeIdempotentResponse,
} from './idempotency-key.repository';

// Design: docs/decisions/0010-idempotency.md (Stripe's semantics, brandur's "map the request to a
// transaction", the IETF draft's status codes). Every money-moving call of Flujo only writes to its own
// database, so claiming the key, doing the work and storing the response share one transaction: the
// stored response exists if and only if the work committed.

export const IDEMPOTENCY_MESSAGES = {
  invalidKey: 'La clave de idempotencia (Idempotency-Key) no es válida: usa de 1 a 255 caracteres visibles.',
  reusedWithOtherRequest:
    'Esta clave de idempotencia ya se usó con otra solicitud. Genera una clave nueva para cada operación.',
  inFlight: 'Una solicitud con esta clave de idempotencia todavía se está procesando. Intenta de nuevo.',
} as const;

/** NOTE: Stripe accepts keys "up to 255 characters long"; the IETF draft makes the field an sf-string. */
export const MAX_KEY_LENGTH = 255;
/** Keys are kept at least this long (Stripe: 24 h; 72 h also covers a weekend of retries). */
export const KEY_RETENTION_HOURS = 72;

const VISIBLE_ASCII = /^[\x20-\x7e]+$/;

export class IdempotencyError extends Error {
  constructor(
    readonly statusCode: 400 | 409 | 422,
    message: string,
  ) {
    super(message);
  }
}

/** The header value as a key, or null when absent. An sf-string's quotes are removed. Throws 400 when malformed. */
export function parseIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header)) throw new IdempotencyError(400, IDEMPOTENCY_MESSAGES.invalidKey);
  const quoted = /^"(.*)"$/.exec(header.trim());
  const key = quoted ? (quoted[1] ?? '') : header.trim();
  if (key.length === 0 || key.length > MAX_KEY_LENGTH || !VISIBLE_ASCII.test(key)) {
    throw new IdempotencyError(400, IDEMPOTENCY_MESSAGES.invalidKey);
  }
  return key;
}

/**
 * JSON with object keys sorted at every level, so {a,b} and {b,a} are the same request. A body nested deeper
 * than any form (a call that takes no body still gets one now and then) is refused as validateForm refuses it,
 * with a 400, instead of recursing into a stack overflow.
 */
export function canonicalJson(value: unknown, depth = 0): string {
  if (depth > MAX_FORM_DEPTH) throw new IdempotencyError(400, MESSAGES.form);
  if (Array.isArray(value)) return `[${value.map((item) => canonicalJson(item, depth + 1)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, item]) => item !== undefined)
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([key, item]) => `${JSON.stringify(key)}:${canonicalJson(item, depth + 1)}`).join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('hex');
}

/** What a money-moving call answers; `afterCommit` runs once the work is durable (e-mails), never on a replay. */
export interface CallOutcome {
  statusCode: number;
  body: unknown;
  afterCommit?: () => Promise<void>;
}

export interface IdempotentCall {
  userId: number;
  /** Null: the client sent no key, so the call simply runs once in its transaction. */
  key: string | null;
  method: string;
  /** Path without the query string. */
  path: string;
  body: unknown;
}

export interface IdempotentResult {
  statusCode: number;
  body: unknown;
  /** True when this is the stored answer of an earlier request with the same key. */
  replayed: boolean;
}

/**
 * Turns a business refusal (an error with a 403/404/409/422 status) into the answer to store and send;
 * null for anything else. Refusals are stored like successes (a retry gets the same answer); invalid input
 * (400) and server errors roll everything back, key included, so the client may retry with the same key.
 */
export type RefusalMapper = (error: unknown) => { statusCode: number; body: unknown } | null;

const SAVEPOINT = 'idempotent_call';

/**
 * Runs `execute` at most once per (user, key):
 * 1. INSERT the key … ON CONFLICT DO NOTHING, in the call's transaction. On PostgreSQL a second request
 *    with the same key blocks on that insert until the first commits or rolls back, so two first requests
 *    can never both execute (the unique key is the lock; SELECT-then-INSERT would race).
 * 2. A key already there: another method, path or body → 422; otherwise replay its stored status and body.
 * 3. A fresh key: run the work behind a savepoint, store the response in the same row, commit.
 */
export async function runIdempotent(
  db: Db,
  call: IdempotentCall,
  execute: (trx: Db) => Promise<CallOutcome>,
  refusal: RefusalMapper,
): Promise<IdempotentResult> {
  let afterCommit: (() => Promise<void>) | undefined;
  const result = await db.transaction().execute(async (trx): Promise<IdempotentResult> => {
    const fingerprint = requestFingerprint(call.body);
    if (call.key !== null) {
      const claimed = await claimIdempotencyKey(trx, {
        userId: call.userId,
        key: call.key,
        method: call.method,
        path: call.path,
        requestHash: fingerprint,
      });
      if (!claimed) return replay(trx, call, fingerprint);
    }

    await savepoint(trx, SAVEPOINT);
    let outcome: { statusCode: number; body: unknown };
    try {
      const done = await execute(trx);
      afterCommit = done.afterCommit;
      outcome = { statusCode: done.statusCode, body: done.body };
    } catch (error) {
      const refused = refusal(error);
      if (refused === null) throw error;
      // The refusal may have come half-way: undo the work, keep the claimed key.
      await rollbackToSavepoint(trx, SAVEPOINT);
      outcome = refused;
    }
    if (call.key !== null) {
      await storeIdempotentResponse(trx, call.userId, call.key, outcome);
    }
    return { ...outcome, replayed: false };
  });
  if (!result.replayed && afterCommit) await afterCommit();
  return result;
}

async function replay(trx: Db, call: IdempotentCall, fingerprint: string): Promise<IdempotentResult> {
  const row = await findIdempotencyKey(trx, call.userId, call.key as string);
  if (row.method !== call.method || row.path !== call.path || row.request_hash !== fingerprint) {
    throw new IdempotencyError(422, IDEMPOTENCY_MESSAGES.reusedWithOtherRequest);
  }
  // Cannot happen with the single-transaction design (the row commits with its response); kept as the
  // IETF draft's answer should a row ever be committed without one.
  if (row.response_status === null) throw new IdempotencyError(409, IDEMPOTENCY_MESSAGES.inFlight);
  return { statusCode: row.response_status, body: row.response_body, replayed: true };
}

/** Deletes keys older than the retention; a pruned key used again starts a new request (as at Stripe). */
export async function pruneIdempotencyKeys(db: Db, now: Date, hours = KEY_RETENTION_HOURS): Promise<number> {
  return deleteIdempotencyKeysBefore(db, new Date(now.getTime() - hours * 3_600_000));
}
