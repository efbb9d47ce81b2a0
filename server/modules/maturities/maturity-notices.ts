import { sql } from 'kysely';
import { addBusinessDays } from '../../../src/domain/business-calendar';
import { displayDate, type IsoDate } from '../../../src/domain/calendar-date';
import { formatConvertedMxn, formatMoney, formatMxn, parseMoney } from '../../../src/domain/money';
import type { MaturityBuyer, MaturityInvoice } from '../../../src/domain/schemas/maturities';
import { DEMO_COLLECTION_CLABE } from '../../config';
import type { Db } from '../../db/database';
import { insertOutbox } from '../../mail/outbox.repository';
import { companyRecipients } from '../invoices/invoice-notifications';
import { maturityBatches } from './maturities.service';

// The maturity notices (issue 34, decision 0066): a buyer is told by e-mail 5 business days and 1 business day
// before its batch falls due, with the payment instructions (amount outstanding, reference, Flujo's collection
// CLABE) and the invoices. Sent once across every process: the notice row (batch, kind) is unique and is inserted
// in the same transaction as the outbox rows, so a second run, here or in another process, inserts nothing.

export const MATURITY_NOTICE_KINDS = [
  { kind: '5d', businessDays: 5 },
  { kind: '1d', businessDays: 1 },
] as const;
export type MaturityNoticeKind = (typeof MATURITY_NOTICE_KINDS)[number]['kind'];

export interface MaturityNoticeCounts {
  /** Batches told for the first time today, per kind. */
  sent: Record<MaturityNoticeKind, number>;
  /** Batches already told (an earlier run or another process). */
  alreadySent: number;
  /** Batches with something outstanding whose buyer has no active user to write to (tried again next run). */
  noRecipients: number;
  /** E-mails queued. */
  emails: number;
}

const WHEN: Record<MaturityNoticeKind, string> = {
  '5d': 'en 5 días hábiles',
  '1d': 'el próximo día hábil',
};

function invoiceLine(invoice: MaturityInvoice): string {
  const folio = invoice.serie_folio ?? 'sin folio';
  const pending = formatMxn(parseMoney(invoice.outstanding));
  const converted =
    invoice.currency === 'USD' && invoice.exchange_rate !== null
      ? ` (factura de ${formatMoney(parseMoney(invoice.amount), 'USD')}; valor ${formatConvertedMxn(parseMoney(invoice.amount_mxn), invoice.exchange_rate)})`
      : '';
  return `- Folio ${folio} (UUID ${invoice.cfdi_uuid}), proveedor ${invoice.supplier_name}: pendiente ${pending}${converted}`;
}

/** The notice's subject and text (Spanish). */
export function maturityNoticeMessage(
  buyer: MaturityBuyer,
  dueOn: IsoDate,
  kind: MaturityNoticeKind,
  collectionClabe: string,
): { subject: string; text: string } {
  const amount = formatMxn(parseMoney(buyer.outstanding));
  const pending = buyer.invoices.filter((invoice) => parseMoney(invoice.outstanding) > 0);
  return {
    subject: `Vencimiento ${WHEN[kind]} (${displayDate(dueOn)}): ${amount}, referencia ${buyer.reference}`,
    text: [
      `Hola, ${buyer.corporate_name}:`,
      '',
      `Las facturas que Flujo adelantó a sus proveedores vencen ${WHEN[kind]}, el ${displayDate(dueOn)}.`,
      '',
      'Instrucciones de pago por SPEI:',
      `- Monto a pagar: ${amount}`,
      `- CLABE de cobranza de Flujo: ${collectionClabe}`,
      `- Referencia numérica: ${buyer.reference}`,
      'Escribe la referencia tal cual, para que identifiquemos tu pago con estas facturas.',
      '',
      `Facturas (${pending.length}):`,
      ...pending.map(invoiceLine),
      '',
      'Si ya pagaste, ignora este mensaje.',
      'Flujo',
    ].join('\n'),
  };
}

/**
 * Sends the notices due on `asOf`: 5 business days before each batch's due date and 1 business day before, for
 * every batch with something outstanding. Idempotent and safe across processes; returns what it did.
 */
export async function sendMaturityNotices(
  db: Db,
  asOf: IsoDate,
  options: { collectionClabe?: string; now?: Date } = {},
): Promise<MaturityNoticeCounts> {
  const collectionClabe = options.collectionClabe ?? DEMO_COLLECTION_CLABE;
  const counts: MaturityNoticeCounts = {
    sent: { '5d': 0, '1d': 0 },
    alreadySent: 0,
    noRecipients: 0,
    emails: 0,
  };
  for (const { kind, businessDays } of MATURITY_NOTICE_KINDS) {
    const dueOn = addBusinessDays(asOf, businessDays);
    const batches = await maturityBatches(db, { from: dueOn, to: dueOn });
    for (const { buyer, sums } of batches) {
      if (sums.outstanding <= 0) continue;
      const recipients = await companyRecipients(db, buyer.corporate_id);
      if (recipients.length === 0) {
        counts.noRecipients += 1;
        continue;
      }
      const message = maturityNoticeMessage(buyer, dueOn, kind, collectionClabe);
      const queued = await db.transaction().execute(async (trx) => {
        const { rows } = await sql<{ id: number }>`
          insert into maturity_notices (batch_id, kind, as_of, outstanding, recipients)
          values (${buyer.batch_id}, ${kind}, ${asOf}, ${buyer.outstanding}, ${recipients.length})
          on conflict (batch_id, kind) do nothing
          returning id`.execute(trx);
        if (rows.length === 0) return 0;
        const at = options.now ?? new Date();
        for (const recipient of recipients) {
          await insertOutbox(trx, {
            recipient,
            subject: message.subject,
            bodyText: message.text,
            sentAt: null,
            error: null,
            nextAttemptAt: at,
          });
        }
        return recipients.length;
      });
      if (queued === 0) counts.alreadySent += 1;
      else {
        counts.sent[kind] += 1;
        counts.emails += queued;
      }
    }
  }
  return counts;
}
