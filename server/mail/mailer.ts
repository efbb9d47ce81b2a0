import type { FastifyBaseLogger } from 'fastify';
import nodemailer from 'nodemailer';
import type { Db } from '../db/database';
import { insertOutbox } from './outbox.repository';

export interface MailMessage {
  to: string;
  subject: string;
  /** Plain text; Flujo's mails are short Spanish texts with one link. */
  text: string;
}

/** 'sent': delivered to the SMTP server; 'outbox': no SMTP configured; 'failed': SMTP refused (kept in the outbox). */
export type MailDelivery = 'sent' | 'outbox' | 'failed';

export interface Mailer {
  /** Never throws: a mail problem must not break the request that sends it. */
  send(message: MailMessage): Promise<MailDelivery>;
}

type Log = Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;

// A slow or dead SMTP server must not hold a request for minutes (nodemailer's defaults are 2 min / 10 min).
const SMTP_TIMEOUTS = { connectionTimeout: 10_000, greetingTimeout: 10_000, socketTimeout: 20_000 };

// Delivered bodies are not kept: they can hold live links (password reset) whose tokens the database
// otherwise stores only as hashes.
const DELIVERED_BODY = '[entregado por SMTP; el texto no se guarda]';

const URLS = /https?:\/\/\S+/g;

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
        // Development convenience: the link (reset password) is visible without opening the outbox.
        log.info(
          { to: message.to, subject: message.subject, links: message.text.match(URLS) ?? [] },
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

/** nodemailer over SMTP; a failed delivery is stored in the outbox with its error for an operator. */
export function createSmtpMailer(db: Db, options: { smtpUrl: string; from: string; log: Log }): Mailer {
  const transport = nodemailer.createTransport(options.smtpUrl, { from: options.from, ...SMTP_TIMEOUTS });
  return {
    async send(message) {
      try {
        await transport.sendMail({ to: message.to, subject: message.subject, text: message.text });
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        options.log.error({ err: error, to: message.to, subject: message.subject }, 'SMTP delivery failed');
        try {
          await insertOutbox(db, {
            recipient: message.to,
            subject: message.subject,
            bodyText: message.text,
            sentAt: null,
            error: reason.slice(0, 1000),
          });
        } catch (storeError) {
          options.log.error({ err: storeError }, 'failed mail could not be stored either');
        }
        return 'failed';
      }
      try {
        await insertOutbox(db, {
          recipient: message.to,
          subject: message.subject,
          bodyText: DELIVERED_BODY,
          sentAt: new Date(),
          error: null,
        });
      } catch (storeError) {
        options.log.warn({ err: storeError }, 'delivered mail could not be recorded');
      }
      return 'sent';
    },
  };
}

export function createMailer(db: Db, options: { smtpUrl: string | null; from: string; log: Log }): Mailer {
  return options.smtpUrl
    ? createSmtpMailer(db, { smtpUrl: options.smtpUrl, from: options.from, log: options.log })
    : createOutboxMailer(db, options.log);
}
