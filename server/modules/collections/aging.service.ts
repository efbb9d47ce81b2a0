import type { IsoDate } from '../../../src/domain/calendar-date';
import { invoiceLabel } from '../../../src/domain/invoice-label';
import { AGING_BUCKETS, type AgingBucket, freezesOn } from '../../../src/domain/maturities';
import { type Centavos, formatMoneyAmount, parseMoney } from '../../../src/domain/money';
import { effectiveProgrammeState } from '../../../src/domain/programme-lending';
import type { AgingBuyer, AgingQuery, AgingReport } from '../../../src/domain/schemas/delinquency';
import type { Db } from '../../db/database';
import { type AgingScope, type AgingSumRow, agingInvoices, agingSums, buyersOf } from './aging.repository';

// GET /api/operator/aging/ (issue 34, decision 0068): outstanding per bucket per invoice, buyer and programme,
// with the moratory interest to date (shown, never charged).

interface Totals {
  buckets: Record<AgingBucket, Centavos>;
  outstanding: Centavos;
  moratory: Centavos;
  invoices: number;
  maxDaysLate: number;
}

const emptyTotals = (): Totals => ({
  buckets: Object.fromEntries(AGING_BUCKETS.map((bucket) => [bucket, 0])) as Record<AgingBucket, Centavos>,
  outstanding: 0,
  moratory: 0,
  invoices: 0,
  maxDaysLate: 0,
});

function add(totals: Totals, row: AgingSumRow): void {
  const outstanding = parseMoney(String(row.outstanding));
  totals.buckets[row.bucket] += outstanding;
  totals.outstanding += outstanding;
  totals.moratory += parseMoney(String(row.moratory));
  totals.invoices += Number(row.invoices);
  totals.maxDaysLate = Math.max(totals.maxDaysLate, Number(row.max_days_late));
}

function totalsView(totals: Totals) {
  return {
    buckets: Object.fromEntries(
      AGING_BUCKETS.map((bucket) => [bucket, formatMoneyAmount(totals.buckets[bucket])]),
    ) as Record<AgingBucket, string>,
    outstanding: formatMoneyAmount(totals.outstanding),
    moratory_interest: formatMoneyAmount(totals.moratory),
    invoices: totals.invoices,
  };
}

function grouped(rows: readonly AgingSumRow[]): Map<number, Totals> {
  const byKey = new Map<number, Totals>();
  for (const row of rows) {
    const totals = byKey.get(row.key) ?? emptyTotals();
    add(totals, row);
    byKey.set(row.key, totals);
  }
  return byKey;
}

/** The aging report as of `asOf` (query.fecha, else today). */
export async function agingReport(db: Db, query: AgingQuery, today: IsoDate): Promise<AgingReport> {
  const asOf = query.fecha ?? today;
  const scope: AgingScope = { asOf, corporateId: query.corporate_id, programmeId: query.programme_id };
  const [byCorporate, byProgramme, page] = await Promise.all([
    agingSums(db, scope, 'corporate'),
    agingSums(db, scope, 'programme'),
    agingInvoices(db, scope, { offset: (query.page - 1) * query.page_size, limit: query.page_size }),
  ]);
  const corporates = grouped(byCorporate);
  const programmes = grouped(byProgramme);
  const all = emptyTotals();
  for (const row of byCorporate) add(all, row);
  const buyers = await buyersOf(db, [...corporates.keys()]);
  const buyerViews: AgingBuyer[] = buyers.map((buyer) => {
    const totals = corporates.get(buyer.corporate_id) ?? emptyTotals();
    return {
      corporate_id: buyer.corporate_id,
      corporate_name: buyer.corporate_name,
      programme_id: buyer.programme_id,
      programme_state:
        buyer.programme_state === null
          ? null
          : effectiveProgrammeState({ state: buyer.programme_state, endsOn: buyer.programme_ends_on }, asOf),
      frozen_for: buyer.frozen_for ?? null,
      grace_days: buyer.grace_days,
      moratory_rate: buyer.moratory_rate === null ? null : String(Number(buyer.moratory_rate)),
      max_days_past_due: totals.maxDaysLate,
      totals: totalsView(totals),
    };
  });
  return {
    fecha: asOf,
    totals: totalsView(all),
    buyers: buyerViews,
    programmes: buyerViews.flatMap((buyer) => {
      const totals = buyer.programme_id === null ? undefined : programmes.get(buyer.programme_id);
      return totals && buyer.programme_id !== null
        ? [
            {
              programme_id: buyer.programme_id,
              corporate_name: buyer.corporate_name,
              state: buyer.programme_state ?? 'borrador',
              totals: totalsView(totals),
            },
          ]
        : [];
    }),
    invoices: {
      count: page.count,
      page: query.page,
      page_size: query.page_size,
      results: page.rows.map((row) => ({
        invoice_id: row.invoice_id,
        label: invoiceLabel(row),
        corporate_id: row.corporate_id,
        corporate_name: row.corporate_name,
        provider_name: row.provider_name,
        programme_id: row.programme_id,
        due_on: row.due_on,
        freezes_on: freezesOn(row.due_on, row.grace_days),
        days_past_due: row.days_late,
        bucket: row.bucket,
        value: formatMoneyAmount(parseMoney(row.value)),
        collected: formatMoneyAmount(parseMoney(row.collected)),
        outstanding: formatMoneyAmount(parseMoney(row.outstanding)),
        moratory_interest: formatMoneyAmount(parseMoney(row.moratory)),
      })),
    },
  };
}
