import { sql } from 'kysely';
import type { Db } from '../db/database';

export interface OutboxRow {
  id: number;
  recipient: string;
  subject: string;
  body_text: string;
  created_at: string;
  sent_at: string | null;
  error: string | null;
  attempts: number;
  next_attempt_at: string | null;
}

export async function insertOutbox(
  db: Db,
  row: {
    recipient: string;
    subject: string;
    bodyText: string;
    sentAt: Date | null;
    error: string | null;
    /** Set: queued for the delivery job from this moment. */
    nextAttemptAt?: Date;
  },
): Promise<number> {
  const inserted = await db
    .insertInto('mail_outbox')
    .values({
      recipient: row.recipient,
      subject: row.subject,
      body_text: row.bodyText,
      sent_at: row.sentAt?.toISOString() ?? null,
      error: row.error,
      next_attempt_at: row.nextAttemptAt?.toISOString() ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Newest first. */
export function listOutbox(db: Db, limit: number): Promise<OutboxRow[]> {
  return db
    .selectFrom('mail_outbox')
    .select([
      'id',
      'recipient',
      'subject',
      'body_text',
      'created_at',
      'sent_at',
      'error',
      'attempts',
      'next_attempt_at',
    ])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}

export interface QueuedMail {
  id: number;
  recipient: string;
  subject: string;
  body_text: string;
  attempts: number;
}

/**
 * Claims up to `limit` due messages for one delivery attempt: raises attempts and moves next_attempt_at to
 * `leaseUntil`, so no other process takes them meanwhile (SKIP LOCKED: concurrent claimers take different
 * rows instead of waiting). A process that dies mid-send leaves its rows to be retried when the lease ends.
 */
export async function claimDueMail(db: Db, at: Date, leaseUntil: Date, limit: number): Promise<QueuedMail[]> {
  const result = await sql<QueuedMail>`
    UPDATE mail_outbox SET attempts = attempts + 1, next_attempt_at = ${leaseUntil.toISOString()}
    WHERE id IN (
      SELECT id FROM mail_outbox
      WHERE sent_at IS NULL AND next_attempt_at IS NOT NULL AND next_attempt_at <= ${at.toISOString()}
      ORDER BY next_attempt_at, id
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    )
    RETURNING id, recipient, subject, body_text, attempts`.execute(db);
  return result.rows;
}

export async function markMailSent(db: Db, id: number, at: Date, deliveredBody: string): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ sent_at: at.toISOString(), body_text: deliveredBody, error: null, next_attempt_at: null })
    .where('id', '=', id)
    .execute();
}

/** Records a failed attempt; `retryAt` null means given up (kept with its error for an operator). */
export async function markMailFailed(db: Db, id: number, error: string, retryAt: Date | null): Promise<void> {
  await db
    .updateTable('mail_outbox')
    .set({ error: error.slice(0, 1000), next_attempt_at: retryAt?.toISOString() ?? null })
    .where('id', '=', id)
    .execute();
}
