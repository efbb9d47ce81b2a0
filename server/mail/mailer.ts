import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../db/database';
import { redactSecrets } from '../http/log-redaction';
import { claimDueMail, insertOutbox, markMailFailed, markMailSent } from './outbox.repository';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text; Flujo's mails are short Spanish texts with one link. */
  text: string;
}

/**
 * 'queued': in mail_outbox for the delivery job (SMTP configured); 'outbox': kept there, no SMTP configured;
 * 'sent': delivered (injected mailers); 'failed': could not even be stored.
 */
export type MailDelivery = 'queued' | 'sent' | 'outbox' | 'failed';

export interface Mailer {
  /** Never throws and never waits on SMTP: a mail problem must not break or hold the request that sends it. */
  send(message: MailMessage): Promise<MailDelivery>;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

// A slow or dead SMTP server must not hold the delivery job for minutes (nodemailer's defaults are 2 / 10 min).
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

// Delivered bodies are not kept: they can hold live links (password reset) whose tokens the database
// otherwise stores only as hashes.
const DELIVERED_BODY = '[entregado por SMTP; el texto no se guarda]';

/** Retries: 30 s, 1 min, 2 min, … doubling, each wait at most an hour; given up after MAX_ATTEMPTS. */
export const MAIL_RETRY = { firstDelayMs: 30_000, maxDelayMs: 3_600_000, maxAttempts: 10 } as const;
// Longer than one attempt can take with SMTP_TIMEOUTS, so a claimed row is not sent twice by two processes.
const CLAIM_LEASE_MS = 2 * 60_000;
const BATCH = 20;

const URLS = /https?:\/\/\S+/g;

/** How long to wait after the `attempts`-th failure. */
export function mailRetryDelayMs(attempts: number): number {
  return Math.min(MAIL_RETRY.firstDelayMs * 2 ** Math.max(attempts - 1, 0), MAIL_RETRY.maxDelayMs);
}

/** Without SMTP: the mail_outbox table (read with `npm run ops -- mail:list`) and the log. */
export function createOutboxMailer(db: Db, log: Log): Mailer {
  return {
    async send(message) {
      try {
        await insertOutbox(db, {
          recipient: message.to,
          subject: message.subject,
          bodyText: message.text,
          sentAt: null,
          error: null,
        });
        // Which page the mail links to, without its token: the link itself is read from the outbox
        // (`npm run ops -- mail:list`), never from a log (decision 0060).
        log.info(
          {
            to: message.to,
            subject: message.subject,
            links: (message.text.match(URLS) ?? []).map(redactSecrets),
          },
          'mail kept in the outbox (SMTP_URL not configured)',
        );
      } catch (error) {
        log.error({ err: error, to: message.to, subject: message.subject }, 'mail could not be stored');
        return 'failed';
      }
      return 'outbox';
    },
  };
}

/** With SMTP: the request only queues the message in mail_outbox; the mail-delivery job sends it. */
export function createQueueMailer(db: Db, log: Log): Mailer {
  return {
    async send(message) {
      try {
        await insertOutbox(db, {
          recipient: message.to,
          subject: message.subject,
          bodyText: message.text,
          sentAt: null,
          error: null,
          nextAttemptAt: new Date(),
        });
      } catch (error) {
        log.error({ err: error, to: message.to, subject: message.subject }, 'mail could not be queued');
        return 'failed';
      }
      return 'queued';
    },
  };
}

export function createMailer(db: Db, options: { smtpUrl: string | null; log: Log }): Mailer {
  return options.smtpUrl ? createQueueMailer(db, options.log) : createOutboxMailer(db, options.log);
}

export interface MailDeliveryResult {
  sent: number;
  failed: number;
}

/**
 * The delivery job's work: claims the due messages (each process claims different rows) and sends them over
 * SMTP, marking each sent, or scheduling its retry with backoff. At least once: a process killed between the
 * SMTP answer and the mark sends that message again after the lease.
 */
export function createMailDelivery(options: { db: Db; smtpUrl: string; from: string; log: Log }) {
  const transport = nodemailer.createTransport(options.smtpUrl, { from: options.from, ...SMTP_TIMEOUTS });
  return {
    async deliverDue(at: Date): Promise<MailDeliveryResult> {
      const result: MailDeliveryResult = { sent: 0, failed: 0 };
      const claimed = await claimDueMail(options.db, at, new Date(at.getTime() + CLAIM_LEASE_MS), BATCH);
      for (const mail of claimed) {
        try {
          await transport.sendMail({ to: mail.recipient, subject: mail.subject, text: mail.body_text });
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          const giveUp = mail.attempts >= MAIL_RETRY.maxAttempts;
          const retryAt = giveUp ? null : new Date(Date.now() + mailRetryDelayMs(mail.attempts));
          options.log.error(
            { err: error, to: mail.recipient, subject: mail.subject, attempts: mail.attempts, retryAt },
            giveUp ? 'SMTP delivery failed; giving up' : 'SMTP delivery failed; will retry',
          );
          await markMailFailed(options.db, mail.id, reason, retryAt);
          result.failed += 1;
          continue;
        }
        await markMailSent(options.db, mail.id, new Date(), DELIVERED_BODY);
        result.sent += 1;
      }
      return result;
    },
    close: () => transport.close(),
  };
}
