import type { Db } from '../db/database';

export interface OutboxRow {
  id: number;
  recipient: string;
  subject: string;
  body_text: string;
  created_at: string;
  sent_at: string | null;
  error: string | null;
}

export async function insertOutbox(
  db: Db,
  row: { recipient: string; subject: string; bodyText: string; sentAt: Date | null; error: string | null },
): Promise<number> {
  const inserted = await db
    .insertInto('mail_outbox')
    .values({
      recipient: row.recipient,
      subject: row.subject,
      body_text: row.bodyText,
      sent_at: row.sentAt?.toISOString() ?? null,
      error: row.error,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return inserted.id;
}

/** Newest first. */
export function listOutbox(db: Db, limit: number): Promise<OutboxRow[]> {
  return db
    .selectFrom('mail_outbox')
    .select(['id', 'recipient', 'subject', 'body_text', 'created_at', 'sent_at', 'error'])
    .orderBy('id', 'desc')
    .limit(limit)
    .execute();
}
