import dayjs from 'dayjs';
import { ISO_DATE_FORMAT, type IsoDate } from '../../../src/domain/calendar-date';
import { collectionReference } from '../../../src/domain/maturities';
import { type Centavos, formatMoneyAmount, parseMoney, sumMoney } from '../../../src/domain/money';
import type {
  CorporateMaturity,
  MaturitiesReport,
  MaturityBuyer,
  MaturityDay,
  MaturityInvoice,
} from '../../../src/domain/schemas/maturities';
import type { Db } from '../../db/database';
import { serieFolio } from '../invoices/invoice-list';
import {
  ensureMaturityBatches,
  listMaturityRows,
  type MaturityFilter,
  type MaturityRow,
} from './maturities.repository';

// What falls due when (decision 0066): the advanced invoices of a range grouped per business day and per buyer
// (one maturity batch, paid with one reference), each with advanced, collected and outstanding in pesos.

interface Sums {
  advanced: Centavos;
  collected: Centavos;
  outstanding: Centavos;
}

/** An invoice's sums: outstanding is its peso value minus what was collected, never below 0. */
function invoiceSums(row: MaturityRow): Sums {
  const collected = parseMoney(row.collected);
  return {
    advanced: parseMoney(row.advanced),
    collected,
    outstanding: Math.max(0, parseMoney(row.amount_mxn) - collected),
  };
}

function addSums(parts: readonly Sums[]): Sums {
  return {
    advanced: sumMoney(parts.map((part) => part.advanced)),
    collected: sumMoney(parts.map((part) => part.collected)),
    outstanding: sumMoney(parts.map((part) => part.outstanding)),
  };
}

function sumsText(sums: Sums) {
  return {
    advanced: formatMoneyAmount(sums.advanced),
    collected: formatMoneyAmount(sums.collected),
    outstanding: formatMoneyAmount(sums.outstanding),
  };
}

/** A buyer's batch on one day, with its invoices and their sums. */
export interface MaturityBatchView {
  buyer: MaturityBuyer;
  sums: Sums;
}

function groupBy<T, K>(items: readonly T[], key: (item: T) => K): Map<K, T[]> {
  const groups = new Map<K, T[]>();
  for (const item of items) {
    const group = groups.get(key(item));
    if (group) group.push(item);
    else groups.set(key(item), [item]);
  }
  return groups;
}

function invoiceOf(row: MaturityRow, sums: Sums): MaturityInvoice {
  return {
    invoice_id: row.invoice_id,
    serie_folio: serieFolio(row.serie, row.folio),
    cfdi_uuid: row.cfdi_uuid,
    supplier_name: row.supplier_name,
    supplier_rfc: row.supplier_rfc,
    currency: row.currency,
    amount: formatMoneyAmount(parseMoney(row.amount)),
    exchange_rate: row.currency === 'MXN' ? null : row.exchange_rate,
    amount_mxn: formatMoneyAmount(parseMoney(row.amount_mxn)),
    ...sumsText(sums),
  };
}

/** The batches of rows already ordered by day and buyer. */
function batchesOf(rows: readonly MaturityRow[]): MaturityBatchView[] {
  return [...groupBy(rows, (row) => row.batch_id).values()].map((invoices) => {
    const first = invoices[0] as MaturityRow;
    const parts = invoices.map((row) => ({ row, sums: invoiceSums(row) }));
    const sums = addSums(parts.map((part) => part.sums));
    return {
      sums,
      buyer: {
        corporate_id: first.corporate_id,
        corporate_name: first.corporate_name,
        corporate_rfc: first.corporate_rfc,
        batch_id: first.batch_id,
        reference: collectionReference(first.batch_id),
        ...sumsText(sums),
        invoices: parts.map((part) => invoiceOf(part.row, part.sums)),
      },
    };
  });
}

/** The maturity batches (created on demand) falling due in the range, in day and buyer order. */
export async function maturityBatches(
  db: Db,
  filter: MaturityFilter,
): Promise<Array<MaturityBatchView & { dueOn: IsoDate }>> {
  await ensureMaturityBatches(db, filter);
  const rows = await listMaturityRows(db, filter);
  const dueOnOf = new Map(rows.map((row) => [row.batch_id, row.due_on]));
  return batchesOf(rows).map((batch) => ({ ...batch, dueOn: dueOnOf.get(batch.buyer.batch_id) as IsoDate }));
}

/** GET /api/operator/maturities/: the range per day and per buyer, with each level's sums. */
export async function maturitiesReport(db: Db, filter: MaturityFilter): Promise<MaturitiesReport> {
  const batches = await maturityBatches(db, filter);
  const days: MaturityDay[] = [];
  const daySums: Sums[] = [];
  for (const [dueOn, ofDay] of groupBy(batches, (batch) => batch.dueOn)) {
    const sums = addSums(ofDay.map((batch) => batch.sums));
    daySums.push(sums);
    days.push({ due_on: dueOn, ...sumsText(sums), buyers: ofDay.map((batch) => batch.buyer) });
  }
  return { desde: filter.from, hasta: filter.to, ...sumsText(addSums(daySums)), days };
}

/** How far ahead a corporate's 'Próximos vencimientos' looks. */
const CORPORATE_HORIZON_DAYS = 365;

/** A corporate's next due dates from `today` with something outstanding, nearest first. */
export async function nextMaturities(
  db: Db,
  corporateId: number,
  today: IsoDate,
  limit: number,
): Promise<CorporateMaturity[]> {
  const to = dayjs(today).add(CORPORATE_HORIZON_DAYS, 'day').format(ISO_DATE_FORMAT);
  const batches = await maturityBatches(db, { from: today, to, corporateId });
  return batches
    .filter((batch) => batch.sums.outstanding > 0)
    .slice(0, limit)
    .map((batch) => ({
      due_on: batch.dueOn,
      reference: batch.buyer.reference,
      invoices: batch.buyer.invoices.length,
      outstanding: batch.buyer.outstanding,
    }));
}
