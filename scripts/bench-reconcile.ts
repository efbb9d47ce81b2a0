// `npm run bench:reconcile`: a 10,000-line bank statement reconciled against 100,000 outstanding advanced invoices
// (issue 34, decision 0067). Builds the app in-process on a fresh in-memory PGlite with the demo world (or on
// PostgreSQL when BENCH_DATABASE_URL names an empty database the bench may fill), bulk-inserts 100 buyers with
// 1,000 disbursed invoices each (their disbursements, maturity batches and the programme ledger's 'use' rows), then
// times the reconciliation of one file — the same function POST operator/collections/bank-statement/ runs in its
// transaction — beside GET /api/health/ measured in the same run as a yardstick (absolute times drift on this
// machine; docs/variability.md). It prints, never asserts.
import dayjs from 'dayjs';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db/database';
import { businessDate } from '../server/http/business-date';
import { reconcileBankStatement } from '../server/modules/credit-programmes/bank-statement.service';
import { DEMO_PROVIDERS, seedDemoWorld } from '../server/seed/demo-world';
import { type BankStatementFileLine, bankStatementCsv } from '../src/domain/bank-statement';
import { InvoiceStatus } from '../src/domain/invoice-status';
import { collectionReference } from '../src/domain/maturities';
import { formatMoneyAmount } from '../src/domain/money';
import { rfcCheckDigit } from '../src/domain/rfc';

const BUYERS = 100;
const PER_BUYER = 1_000;
const DUE_DAYS = 20;
const LINES = 10_000;
const CHUNK = 2_000;
const HEALTH_RUNS = 50;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** A valid moral RFC per buyer: three letters from its number, a fixed date, the SAT check digit. */
function buyerRfc(n: number): string {
  const letters = [Math.floor(n / 676) % 26, Math.floor(n / 26) % 26, n % 26]
    .map((i) => String.fromCharCode(65 + i))
    .join('');
  const body = `${letters}150312B${String(n % 10)}`;
  return `${body}${rfcCheckDigit(body)}`;
}

/** Each invoice's MXN value: distinct enough that matching by RFC and amount finds one invoice. */
const amountOf = (n: number) => 1_000_00 + (n % 9_973) * 100 + (n % 7);

async function main(): Promise<void> {
  const started = performance.now();
  const databaseUrl = process.env.BENCH_DATABASE_URL?.trim() || undefined;
  const database = await openDatabase({ databaseUrl });
  const { db } = database;
  const today = businessDate(new Date());
  const app = await buildApp({ database });
  await app.ready();
  await seedDemoWorld(db, app.authenticity, today);
  console.log(
    `database (${databaseUrl ? 'PostgreSQL' : 'PGlite'}) and app ready in ${Math.round(performance.now() - started)} ms`,
  );

  const seeding = performance.now();
  const provider = await db
    .selectFrom('companies')
    .select('id')
    .where('rfc', '=', DEMO_PROVIDERS[0].rfc)
    .executeTakeFirstOrThrow();
  const operator = await db.selectFrom('users').select('id').orderBy('id').executeTakeFirstOrThrow();
  const buyers = await db
    .insertInto('companies')
    .values(
      Array.from({ length: BUYERS }, (_, n) => ({
        rfc: buyerRfc(n),
        name: `Comprador Banco ${n + 1}, S.A.`,
        is_corporate: true,
      })),
    )
    .returning(['id', 'rfc', 'name'])
    .execute();
  const dueOn = (n: number) =>
    dayjs(today)
      .subtract(10, 'day')
      .add(n % DUE_DAYS, 'day')
      .format('YYYY-MM-DD');
  const batchIds = new Map<string, number>();
  let total = 0;
  const invoiceFacts: { id: number; buyer: number; amount: number; due: string }[] = [];
  for (const [b, buyer] of buyers.entries()) {
    const programmeTotal = Array.from({ length: PER_BUYER }, (_, i) => amountOf(b * PER_BUYER + i)).reduce(
      (sum, amount) => sum + amount,
      0,
    );
    const programme = await db
      .insertInto('credit_programmes')
      .values({
        corporate_id: buyer.id,
        limit_amount: '999999999.00',
        state: 'activo',
        used: formatMoneyAmount(programmeTotal),
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    for (const batch of await db
      .insertInto('maturity_batches')
      .values(Array.from({ length: DUE_DAYS }, (_, d) => ({ corporate_id: buyer.id, due_on: dueOn(d) })))
      .returning(['id', 'due_on'])
      .execute())
      batchIds.set(`${buyer.id}:${dayjs(batch.due_on).format('YYYY-MM-DD')}`, batch.id);
    for (let offset = 0; offset < PER_BUYER; offset += CHUNK) {
      const rows = Array.from({ length: Math.min(CHUNK, PER_BUYER - offset) }, (_, index) => {
        const n = b * PER_BUYER + offset + index;
        const amount = formatMoneyAmount(amountOf(n));
        return {
          cfdi_uuid: `REC${String(n).padStart(8, '0')}-0000-4000-8000-000000000000`,
          serie: 'C',
          folio: String(n + 1),
          emitter_company_id: provider.id,
          receiver_company_id: buyer.id,
          emitter_rfc: DEMO_PROVIDERS[0].rfc,
          emitter_name: DEMO_PROVIDERS[0].name,
          receiver_rfc: buyer.rfc ?? '',
          receiver_name: buyer.name,
          issued_at: `${today}T11:00:00`,
          date_of_emission: today,
          payment_date: dueOn(n),
          subtotal: amount,
          amount,
          currency: 'MXN',
          amount_with_exchange_rate: amount,
          description: `Factura adelantada ${n + 1}`,
          status: InvoiceStatus.PAID,
          factoring_date: today,
          factoring_rate: '18.5000',
          cost_financing: '0.00',
          cost_consultancy: '0.00',
          cfdi_xml: '<cfdi:Comprobante/>',
        };
      });
      const inserted = await db.insertInto('invoices').values(rows).returning(['id', 'amount']).execute();
      await db
        .insertInto('disbursements')
        .values(
          inserted.map((row, index) => ({
            invoice_id: row.id,
            amount: row.amount,
            reference: `REC-${row.id}`,
            due_on: dueOn(b * PER_BUYER + offset + index),
          })),
        )
        .execute();
      await db
        .insertInto('programme_ledger')
        .values(
          inserted.map((row) => ({
            programme_id: programme.id,
            invoice_id: row.id,
            kind: 'use' as const,
            amount: row.amount,
            actor_user_id: null,
          })),
        )
        .execute();
      inserted.forEach((row, index) => {
        const n = b * PER_BUYER + offset + index;
        invoiceFacts.push({ id: row.id, buyer: b, amount: amountOf(n), due: dueOn(n) });
      });
      total += inserted.length;
    }
  }
  console.log(
    `${total} outstanding advanced invoices of ${BUYERS} buyers inserted in ${Math.round(performance.now() - seeding)} ms`,
  );

  // The file: 6,000 lines by RFC and exact amount (a distinct invoice each), 2,500 partial payments by reference,
  // 500 over-payments of a whole batch by reference, 1,000 that name nothing (to the queue).
  const lines: BankStatementFileLine[] = [];
  const base = { fecha: today, nombreOrdenante: 'COMPRADOR', concepto: 'PAGO' };
  for (let i = 0; i < 6_000; i++) {
    const invoice = invoiceFacts[i * 16 + 3];
    if (!invoice) break;
    lines.push({
      ...base,
      claveRastreo: `BENCHRFC${i}`,
      amount: invoice.amount,
      rfcOrdenante: buyers[invoice.buyer]?.rfc ?? null,
      referencia: '',
    });
  }
  for (let i = 0; i < 3_000; i++) {
    const buyer = buyers[i % BUYERS];
    const batch = batchIds.get(`${buyer?.id}:${dueOn(Math.floor(i / BUYERS))}`) ?? 1;
    lines.push({
      ...base,
      claveRastreo: `BENCHREF${i}`,
      amount: i < 2_500 ? 100_00 : 999_999_999_00,
      rfcOrdenante: null,
      referencia: collectionReference(batch),
    });
  }
  for (let i = 0; lines.length < LINES; i++)
    lines.push({ ...base, claveRastreo: `BENCHNID${i}`, amount: 123_45, rfcOrdenante: null, referencia: '' });
  const csv = bankStatementCsv(lines);

  const health: number[] = [];
  for (let run = 0; run < HEALTH_RUNS; run++) {
    const t = performance.now();
    const res = await app.inject({ method: 'GET', url: '/api/health/' });
    health.push(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`health: ${res.statusCode}`);
  }
  const t = performance.now();
  const result = await db
    .transaction()
    .execute((trx) => reconcileBankStatement(trx, operator.id, csv, today));
  const reconcileMs = performance.now() - t;
  const t2 = performance.now();
  const again = await db.transaction().execute((trx) => reconcileBankStatement(trx, operator.id, csv, today));
  const againMs = performance.now() - t2;

  const healthMs = median(health);
  console.log('');
  console.log('| call | ms | × health |');
  console.log('|---|---|---|');
  console.log(`| GET /api/health/ (median of ${HEALTH_RUNS}) | ${healthMs.toFixed(2)} | 1 |`);
  console.log(
    `| reconcile ${LINES} lines against ${total} invoices | ${Math.round(reconcileMs)} | ${Math.round(reconcileMs / healthMs)} |`,
  );
  console.log(
    `| the same file again (all repetidas) | ${Math.round(againMs)} | ${Math.round(againMs / healthMs)} |`,
  );
  console.log('');
  console.log(`counts: ${JSON.stringify(result.counts)}; again: ${JSON.stringify(again.counts)}`);
  await app.close();
  await database.close();
}

await main();
