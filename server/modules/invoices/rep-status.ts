import { sql } from 'kysely';
import { daysBetween, type IsoDate } from '../../../src/domain/calendar-date';
import { invoiceLabel } from '../../../src/domain/invoice-label';
import { parseMoney } from '../../../src/domain/money';
import {
  REP_REMINDER_INTERVAL_DAYS,
  REP_REMINDER_SUBJECT,
  REP_STATE_LABELS,
  type RepState,
  repStatusText,
} from '../../../src/domain/payment-complements';
import type { RepStatus } from '../../../src/domain/schemas/payment-complements';
import type { Db } from '../../db/database';
import { inTransaction } from '../../db/transaction';
import { insertOutbox } from '../../mail/outbox.repository';
import { activeUserEmails } from '../accounts/user.repository';

/**
 * The REP of each collected invoice (decision 0070): owed as soon as the buyer paid anything (SAT wants a REP
 * for every payment of a PPD invoice), received once the linked REPs account for what was collected (their
 * ImpPagado in pesos at the invoice's TipoCambio, ≥ the collections) or one says nothing is left
 * (ImpSaldoInsoluto 0). An invoice with no collection has no REP status (absent from the map).
 */
export async function repStatuses(db: Db, invoiceIds: readonly number[]): Promise<Map<number, RepStatus>> {
  const statuses = new Map<number, RepStatus>();
  if (invoiceIds.length === 0) return statuses;
  const collected = await db
    .selectFrom('collections')
    .select(['invoice_id', sql<string>`sum(amount)::text`.as('collected')])
    .where('invoice_id', 'in', [...invoiceIds])
    .groupBy('invoice_id')
    .execute();
  if (collected.length === 0) return statuses;
  const ids = collected.map((row) => row.invoice_id);
  const covered = await db
    .selectFrom('payment_complement_links as l')
    .innerJoin('invoices as i', 'i.id', 'l.invoice_id')
    .select([
      'l.invoice_id',
      sql<string>`round(sum(l.paid * coalesce(i.exchange_rate, 1)), 2)::text`.as('paid_mxn'),
      sql<boolean>`bool_or(l.remaining_balance = 0)`.as('settled'),
    ])
    .where('l.invoice_id', 'in', ids)
    .groupBy('l.invoice_id')
    .execute();
  const latest = await db
    .selectFrom('payment_complement_links as l')
    .innerJoin('payment_complements as pc', 'pc.id', 'l.payment_complement_id')
    .distinctOn('l.invoice_id')
    .select(['l.invoice_id', 'pc.cfdi_uuid', 'pc.issued_at'])
    .where('l.invoice_id', 'in', ids)
    .orderBy('l.invoice_id')
    .orderBy('pc.issued_at', 'desc')
    .orderBy('pc.id', 'desc')
    .execute();
  const coveredOf = new Map(covered.map((row) => [row.invoice_id, row]));
  const latestOf = new Map(latest.map((row) => [row.invoice_id, row]));
  for (const { invoice_id, collected: amount } of collected) {
    const cover = coveredOf.get(invoice_id);
    const received =
      cover !== undefined && (cover.settled || parseMoney(cover.paid_mxn) >= parseMoney(amount));
    const state: RepState = received ? 'recibido' : 'pendiente';
    const rep = received ? latestOf.get(invoice_id) : undefined;
    const status = {
      state,
      label: REP_STATE_LABELS[state],
      uuid: rep?.cfdi_uuid ?? null,
      issued_at: rep?.issued_at ?? null,
    };
    statuses.set(invoice_id, { ...status, text: repStatusText(status) });
  }
  return statuses;
}

/** The REP status of one invoice, or null when nothing was collected on it (no REP owed yet). */
export async function repStatusOf(db: Db, invoiceId: number): Promise<RepStatus | null> {
  return (await repStatuses(db, [invoiceId])).get(invoiceId) ?? null;
}

export interface RepReminderResult {
  /** Invoices whose supplier was reminded now, with the reminder's number. */
  reminded: { invoice_id: number; reminder_number: number; recipients: number }[];
}

/**
 * Reminds the supplier of each advanced invoice whose buyer has paid and whose REP has not arrived: the first
 * reminder on the first run after the collection, then one every REP_REMINDER_INTERVAL_DAYS until it arrives.
 * Each reminder is a row (invoice, number) inserted with its outbox rows in one transaction: two processes
 * running the same day send it once (the second insert finds the row and sends nothing). `asOf` is Mexico
 * City's business date the run stands for (the daily job's today, or a date given to re-run a day).
 */
export async function sendRepReminders(db: Db, asOf: IsoDate): Promise<RepReminderResult> {
  const candidates = await db
    .selectFrom('invoices as i')
    .select(['i.id', 'i.serie', 'i.folio', 'i.cfdi_uuid', 'i.emitter_company_id', 'i.receiver_name'])
    .where((eb) =>
      eb.and([
        eb.exists(eb.selectFrom('disbursements as d').select('d.id').whereRef('d.invoice_id', '=', 'i.id')),
        eb.exists(
          eb
            .selectFrom('collections as c')
            .select('c.id')
            .whereRef('c.invoice_id', '=', 'i.id')
            .where('c.fecha', '<=', asOf),
        ),
      ]),
    )
    .orderBy('i.id')
    .execute();
  const result: RepReminderResult = { reminded: [] };
  if (candidates.length === 0) return result;
  const statuses = await repStatuses(
    db,
    candidates.map((row) => row.id),
  );
  const pending = candidates.filter((row) => statuses.get(row.id)?.state === 'pendiente');
  if (pending.length === 0) return result;
  const sent = await db
    .selectFrom('rep_reminders')
    .select([
      'invoice_id',
      sql<number>`max(reminder_number)`.as('last'),
      sql<string>`max(sent_on)::text`.as('on'),
    ])
    .where(
      'invoice_id',
      'in',
      pending.map((row) => row.id),
    )
    .groupBy('invoice_id')
    .execute();
  const lastOf = new Map(sent.map((row) => [row.invoice_id, row]));
  for (const invoice of pending) {
    const last = lastOf.get(invoice.id);
    if (last && daysBetween(last.on.slice(0, 10), asOf) < REP_REMINDER_INTERVAL_DAYS) continue;
    const recipients = await activeUserEmails(db, invoice.emitter_company_id);
    if (recipients.length === 0) continue;
    const number = (last ? Number(last.last) : 0) + 1;
    const message = reminderMail({ ...invoice, label: invoiceLabel(invoice) }, number);
    const created = await inTransaction(db, async (trx) => {
      const row = await trx
        .insertInto('rep_reminders')
        .values({
          invoice_id: invoice.id,
          reminder_number: number,
          sent_on: asOf,
          recipients: recipients.length,
        })
        .onConflict((conflict) => conflict.columns(['invoice_id', 'reminder_number']).doNothing())
        .returning('invoice_id')
        .executeTakeFirst();
      if (!row) return false;
      for (const to of recipients) {
        await insertOutbox(trx, {
          recipient: to,
          subject: message.subject,
          bodyText: message.text,
          sentAt: null,
          error: null,
          // Queued for the delivery job where SMTP is configured; kept in the outbox otherwise.
          nextAttemptAt: new Date(),
        });
      }
      return true;
    });
    if (created)
      result.reminded.push({
        invoice_id: invoice.id,
        reminder_number: number,
        recipients: recipients.length,
      });
  }
  return result;
}

function reminderMail(
  invoice: { label: string; cfdi_uuid: string; receiver_name: string },
  number: number,
): { subject: string; text: string } {
  return {
    subject: REP_REMINDER_SUBJECT(invoice.label),
    text: [
      `${invoice.receiver_name} ya pagó la factura ${invoice.label} (folio fiscal ${invoice.cfdi_uuid}) que Flujo te adelantó.`,
      '',
      'El SAT pide que emitas el complemento de pago (REP: CFDI tipo P con el complemento Pagos 2.0) que la ' +
        'relacione, a más tardar el día 5 del mes siguiente al pago.',
      '',
      'Flujo lo recibe con la siguiente sincronización de tus CFDI con el SAT, o puedes subir su XML en ' +
        'Flujo. Mientras no llegue, te lo recordaremos cada ' +
        `${REP_REMINDER_INTERVAL_DAYS} días${number > 1 ? ` (recordatorio ${number})` : ''}.`,
    ].join('\n'),
  };
}
