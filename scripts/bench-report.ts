// `npm run bench:report`: wall time of the account statement's report (issue 15: "select all 10,000 and download
// in ≤ 2 s"). Builds the app in-process on a fresh in-memory PGlite with the demo world, bulk-inserts 10,000
// invoices for the demo provider with plain SQL (a third each En trámite, Pagada with its deposit, and
// Factoraje with a record and 3 instalments, so every movement kind is written), then times
// POST /api/providers/account/statement/ with all 10,000 ids several runs, beside GET /api/health/ measured in the
// same run as a yardstick (absolute times drift on this machine; docs/variability.md). Requests go through
// fastify.inject, so the numbers are the server's work without a socket. It prints, never asserts.
import dayjs from 'dayjs';
import { buildApp } from '../server/app';
import { openDatabase } from '../server/db/database';
import { businessDate } from '../server/http/business-date';
import { DEMO_CORPORATE, DEMO_PASSWORD, DEMO_PROVIDERS, seedDemoWorld } from '../server/seed/demo-world';
import { InvoiceStatus } from '../src/domain/invoice-status';

const COUNT = 10_000;
const CHUNK = 1_000;
const RUNS = 5;
const HEALTH_RUNS = 50;
const TARGET_MS = 2_000;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

async function main(): Promise<void> {
  const started = performance.now();
  const database = await openDatabase({});
  const { db } = database;
  const today = businessDate(new Date());
  const app = await buildApp({ database });
  await app.ready();
  await seedDemoWorld(db, app.authenticity, today);
  console.log(`database and app ready in ${Math.round(performance.now() - started)} ms`);

  const companies = await db
    .selectFrom('companies')
    .select(['id', 'rfc'])
    .where('rfc', 'in', [DEMO_PROVIDERS[0].rfc, DEMO_CORPORATE.rfc])
    .execute();
  const providerId = companies.find((row) => row.rfc === DEMO_PROVIDERS[0].rfc)!.id;
  const corporateId = companies.find((row) => row.rfc === DEMO_CORPORATE.rfc)!.id;

  const inserting = performance.now();
  const statuses = [InvoiceStatus.PROCESS, InvoiceStatus.PAID, InvoiceStatus.FACTORING] as const;
  const ids: number[] = [];
  for (let offset = 0; offset < COUNT; offset += CHUNK) {
    const rows = Array.from({ length: Math.min(CHUNK, COUNT - offset) }, (_, index) => {
      const n = offset + index;
      const emitted = dayjs(today)
        .subtract(n % 120, 'day')
        .format('YYYY-MM-DD');
      return {
        cfdi_uuid: `BENCH${String(n).padStart(7, '0')}-0000-4000-8000-${Date.now().toString(16).padStart(12, '0').slice(-12)}`,
        serie: 'R',
        folio: String(n + 1),
        emitter_company_id: providerId,
        receiver_company_id: corporateId,
        emitter_rfc: DEMO_PROVIDERS[0].rfc,
        emitter_name: DEMO_PROVIDERS[0].name,
        receiver_rfc: DEMO_CORPORATE.rfc,
        receiver_name: DEMO_CORPORATE.name,
        issued_at: `${emitted}T11:00:00`,
        date_of_emission: emitted,
        payment_date: dayjs(emitted).add(60, 'day').format('YYYY-MM-DD'),
        subtotal: '86206.90',
        amount: '100000.00',
        currency: 'MXN',
        amount_with_exchange_rate: '100000.00',
        description: `Servicio de prueba ${n + 1}`,
        status: statuses[n % statuses.length]!,
        factoring_date: emitted,
        factoring_rate: '18.5000',
        cost_financing: '1500.00',
        cost_consultancy: '500.00',
        cfdi_xml: '<cfdi:Comprobante/>',
      };
    });
    const inserted = await db.insertInto('invoices').values(rows).returning(['id', 'status']).execute();
    ids.push(...inserted.map((row) => row.id));
    const paid = inserted.filter((row) => row.status === InvoiceStatus.PAID);
    if (paid.length > 0) {
      await db
        .insertInto('disbursements')
        .values(
          paid.map((row) => ({
            invoice_id: row.id,
            amount: '98000.00',
            reference: `BENCH-${row.id}`,
            due_on: '2026-06-30',
          })),
        )
        .execute();
    }
    const factored = inserted.filter((row) => row.status === InvoiceStatus.FACTORING);
    if (factored.length > 0) {
      const records = await db
        .insertInto('factoring_requests')
        .values(
          factored.map((row) => ({
            invoice_id: row.id,
            provider_id: providerId,
            rate: '18.5000',
            installments: 3,
            installment_payment: '34625.00',
            total_payment: '103875.00',
            advisory_fee: '1160.00',
            amount_to_transfer: '98840.00',
            line_amount: '100000.00',
          })),
        )
        .returning('id')
        .execute();
      await db
        .insertInto('factoring_instalments')
        .values(
          records.flatMap((record) =>
            [1, 2, 3].map((number) => ({
              factoring_request_id: record.id,
              number,
              due_date: dayjs(today)
                .add(30 * number, 'day')
                .format('YYYY-MM-DD'),
              amount: '34625.00',
              line_release: '33333.33',
              paid_at: number === 1 ? new Date().toISOString() : null,
            })),
          ),
        )
        .execute();
    }
  }
  console.log(`${COUNT} invoices inserted in ${Math.round(performance.now() - inserting)} ms`);

  const login = await app.inject({
    method: 'POST',
    url: '/api/accounts/login/',
    payload: { username: 'proveedor.demo', password: DEMO_PASSWORD },
  });
  if (login.statusCode !== 200) throw new Error(`login: ${login.statusCode} ${login.body}`);
  const headers = { authorization: `Bearer ${login.json<{ access: string }>().access}` };

  const health: number[] = [];
  for (let run = 0; run < HEALTH_RUNS; run++) {
    const t = performance.now();
    const res = await app.inject({ method: 'GET', url: '/api/health/' });
    health.push(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`health: ${res.statusCode}`);
  }

  // Select-all exactly as the page sends it: every id of the statement.
  const report: number[] = [];
  let bytes = 0;
  for (let run = 0; run < RUNS; run++) {
    const t = performance.now();
    const res = await app.inject({
      method: 'POST',
      url: '/api/providers/account/statement/',
      headers,
      payload: { invoices_ids: ids },
    });
    report.push(performance.now() - t);
    if (res.statusCode !== 200) throw new Error(`report: ${res.statusCode} ${res.body.slice(0, 300)}`);
    bytes = Buffer.from(res.json<{ file_data: string }>().file_data, 'base64').length;
  }

  const healthMs = median(health);
  const reportMs = median(report);
  console.log('');
  console.log(`| call | runs | median ms | runs ms | × health |`);
  console.log(`|---|---|---|---|---|`);
  console.log(`| GET /api/health/ | ${HEALTH_RUNS} | ${healthMs.toFixed(2)} | – | 1 |`);
  console.log(
    `| POST providers/account/statement/ (${COUNT} ids) | ${RUNS} | ${Math.round(reportMs)} | ${report
      .map((ms) => Math.round(ms))
      .join(', ')} | ${Math.round(reportMs / healthMs)} |`,
  );
  console.log('');
  console.log(
    `XLSX ${(bytes / 1_048_576).toFixed(2)} MB; target ≤ ${TARGET_MS} ms: ${reportMs <= TARGET_MS ? 'met' : 'NOT met'} (median).`,
  );
  await app.close();
  await database.close();
}

await main();
