// `npm run bench:bulk`: wall time of the bulk authorization calls (issue 14) on the real server, on PGlite and
// then on PostgreSQL, signed in as the demo corporate:
//   zip      a ZIP of 1,000 new CFDI → POST upload/zip/ → POST quotes/ → POST quotes/pre-approved/ (1,000 lines)
//   xlsx     1,000 CFDI imported first (not timed), the template downloaded and 1,000 payment dates filled with
//            exceljs (not timed) → POST upload/excel/ → quotes/ → pre-approved/
//   cfdi:import  the baseline: `npm run ops -- cfdi:import <dir>` of 1,000 new CFDI against the same database
//            (with PGlite the CLI hands the command to the running server over DATA_DIR/ops.sock)
// One run per scenario and database, one after the other (docs/variability.md: never in parallel).
// PostgreSQL: BENCH_DATABASE_URL (a database the bench may fill), or else a throwaway cluster on port 5434
// started like .ci/run does (initdb under /usr/lib/postgresql/*/bin, as the postgres user when run as root);
// skipped, with the reason printed, when neither is possible.
// Hostile files (issue 14, "each a clear 4xx with a Spanish reason in under a second"): after the table above, on
// the same server, each file of test/fixtures/hostile-uploads.ts is uploaded 5 times to its endpoint and a second
// table prints status, the Spanish reason and the median ms, beside GET /api/health/'s median as a yardstick.
// It prints, never asserts (the API test asserts the 4xx, the reason and that nothing is written).
// `npm run bench:bulk -- --hostile` runs only that part (no 1,000-invoice scenarios), on both databases.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import dayjs from 'dayjs';
import ExcelJS from 'exceljs';
import { TEMPLATE_COLUMNS, XLSX_MEDIA_TYPE } from '../src/domain/bulk-upload';
import {
  emptyFile,
  renamedExe,
  xlsxWithExternalEntity,
  xlsxWithMillionRows,
  zipBomb,
  zipDeclaring1Gb,
  zipOfManyEntries,
  zipWithExternalEntity,
  zipWithPathTraversal,
} from '../test/fixtures/hostile-uploads';
import {
  bulkCfdi,
  DEMO_CORPORATE_USER,
  loginToken,
  postFile,
  postJson,
  type RealServer,
  ROOT,
  startRealServer,
  zipOf,
} from '../test/support/real-server';
import { startThrowawayCluster, type ThrowawayCluster } from './pg-cluster';

const COUNT = 1000;
const PG_PORT = 5434;

interface Row {
  database: string;
  scenario: string;
  ms: number | null;
  note?: string;
  steps?: string;
}

const today = dayjs().format('YYYY-MM-DD');
const paymentDate = dayjs().add(30, 'day').format('YYYY-MM-DD');
let batchSequence = 0;
/** A serie no run has used: the stamp UUIDs are derived from it, so each batch is new to Flujo. */
function newBatch(): string {
  batchSequence += 1;
  return `B${Date.now().toString(36).toUpperCase()}${batchSequence}`;
}

function check(step: string, result: { status: number; body: unknown }, expected = 200): unknown {
  if (result.status !== expected) {
    throw new Error(`${step}: HTTP ${result.status} ${JSON.stringify(result.body).slice(0, 600)}`);
  }
  return result.body;
}

interface Timed {
  ms: number;
  /** Each call's share: 'upload 1,234 · quote 456 · accept 789'. */
  steps: string;
}

async function quoteAndAccept(
  server: RealServer,
  token: string,
  lines: unknown[],
): Promise<{ quote: number; accept: number }> {
  const quoteStart = performance.now();
  check('quotes/', await postJson(`${server.base}/api/corporates/quotes/`, token, lines));
  const acceptStart = performance.now();
  const accepted = check(
    'quotes/pre-approved/',
    await postJson(`${server.base}/api/corporates/quotes/pre-approved/`, token, lines),
  ) as { total_invoices: number };
  const done = performance.now();
  if (accepted.total_invoices !== COUNT) {
    throw new Error(`pre-approved authorized ${accepted.total_invoices} invoices, not ${COUNT}`);
  }
  return { quote: acceptStart - quoteStart, accept: done - acceptStart };
}

function timed(upload: number, rest: { quote: number; accept: number }): Timed {
  const r = Math.round;
  return {
    ms: upload + rest.quote + rest.accept,
    steps: `upload ${r(upload)} · quote ${r(rest.quote)} · accept ${r(rest.accept)}`,
  };
}

async function zipScenario(server: RealServer, token: string): Promise<Timed> {
  const zip = zipOf(bulkCfdi(newBatch(), COUNT, today));
  const started = performance.now();
  const lines = check(
    'upload/zip/',
    await postFile(
      `${server.base}/api/corporates/upload/zip/`,
      token,
      { field: 'zip_file', name: 'facturas.zip', type: 'application/zip', data: zip },
      { payment_date: paymentDate },
    ),
  ) as Array<{ invoice_id: number; payment_date: string }>;
  const uploaded = performance.now() - started;
  if (lines.length !== COUNT) throw new Error(`upload/zip/ returned ${lines.length} lines, not ${COUNT}`);
  return timed(uploaded, await quoteAndAccept(server, token, lines));
}

/** Imports COUNT new CFDI with the ops CLI and returns the command's wall time. */
function opsImport(dataDir: string, databaseUrl: string | undefined): number {
  const dir = mkdtempSync(join(tmpdir(), 'flujo-bench-cfdi-'));
  try {
    for (const file of bulkCfdi(newBatch(), COUNT, today)) writeFileSync(join(dir, file.name), file.xml);
    const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'warn' };
    if (databaseUrl) env.DATABASE_URL = databaseUrl;
    else delete env.DATABASE_URL;
    const started = performance.now();
    // The npm script itself (`npm run ops -- cfdi:import <dir>`), so npm's and tsx's start-up are in the time.
    const out = execFileSync('npm', ['run', '--silent', 'ops', '--', 'cfdi:import', dir], {
      cwd: ROOT,
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    const ms = performance.now() - started;
    // Exit code 0 (execFileSync throws otherwise) means no file was refused. The summary line is checked only
    // when present: on the direct (PostgreSQL) path server/cli.ts calls process.exit() right after printing,
    // which can cut the output to a pipe short.
    const summary = out.match(/(\d+) importadas, (\d+) rechazadas/);
    if (summary && (Number(summary[1]) !== COUNT || summary[2] !== '0')) {
      throw new Error(`cfdi:import did not import ${COUNT}: ${summary[0]}`);
    }
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function xlsxScenario(server: RealServer, token: string): Promise<Timed> {
  // Not timed: 1,000 invoices to pre-authorize, the template downloaded and filled.
  const batch = newBatch();
  const imported = check(
    'upload/zip/ (xlsx set-up)',
    await postFile(
      `${server.base}/api/corporates/upload/zip/`,
      token,
      {
        field: 'zip_file',
        name: 'set-up.zip',
        type: 'application/zip',
        data: zipOf(bulkCfdi(batch, COUNT, today)),
      },
      { payment_date: paymentDate },
    ),
  ) as Array<{ invoice_id: number }>;
  const ours = new Set(imported.map((line) => line.invoice_id));
  const templateRes = await fetch(`${server.base}/api/corporates/template/`, {
    headers: { authorization: `Bearer ${token}` },
  });
  if (!templateRes.ok) throw new Error(`template/: HTTP ${templateRes.status}`);
  const workbook = new ExcelJS.Workbook();
  // exceljs's load() is typed for Node's Buffer.
  await workbook.xlsx.load(Buffer.from(await templateRes.arrayBuffer()) as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('the template has no sheet');
  const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
  const folioColumn = headers.indexOf(TEMPLATE_COLUMNS.fiscalFolio) + 1;
  const serieColumn = headers.indexOf(TEMPLATE_COLUMNS.serieFolio) + 1;
  const dateColumn = headers.indexOf(TEMPLATE_COLUMNS.paymentDate) + 1;
  if (folioColumn === 0 || dateColumn === 0 || serieColumn === 0) throw new Error('template columns moved');
  let filled = 0;
  for (let number = 2; number <= sheet.rowCount; number += 1) {
    const row = sheet.getRow(number);
    // Only this batch's rows (its serie): the demo world's own invoices stay without a date.
    if (String(row.getCell(serieColumn).value ?? '').startsWith(batch)) {
      row.getCell(dateColumn).value = paymentDate;
      filled += 1;
    }
  }
  if (filled !== COUNT) throw new Error(`the template listed ${filled} of the ${COUNT} imported invoices`);
  const xlsx = new Uint8Array(await workbook.xlsx.writeBuffer());

  const started = performance.now();
  const processed = check(
    'upload/excel/',
    await postFile(`${server.base}/api/corporates/upload/excel/`, token, {
      field: 'file',
      name: 'plantilla.xlsx',
      type: XLSX_MEDIA_TYPE,
      data: xlsx,
    }),
  ) as { processed_invoices: Array<{ invoice_id: number; payment_date: string }>; validation_errors: object };
  const uploaded = performance.now() - started;
  if (Object.keys(processed.validation_errors).length > 0) {
    throw new Error(`upload/excel/ refused: ${JSON.stringify(processed.validation_errors).slice(0, 600)}`);
  }
  const lines = processed.processed_invoices.map(({ invoice_id, payment_date }) => ({
    invoice_id,
    payment_date,
  }));
  if (lines.length !== COUNT || !lines.every((line) => ours.has(line.invoice_id))) {
    throw new Error(`upload/excel/ processed ${lines.length} rows, not this batch's ${COUNT}`);
  }
  return timed(uploaded, await quoteAndAccept(server, token, lines));
}

const TRIES = 5;
const ZIP_URL = '/api/corporates/upload/zip/';
const EXCEL_URL = '/api/corporates/upload/excel/';

interface HostileRow {
  database: string;
  file: string;
  endpoint: string;
  status: string;
  reason: string;
  ms: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
}

/** Each hostile file to its endpoint as the API test sends it (built before the clock starts). */
async function hostileFiles(): Promise<
  Array<{ file: string; endpoint: string; name: string; type: string; data: Uint8Array }>
> {
  const cfdi = () => bulkCfdi(newBatch(), 1, today)[0]?.xml ?? '';
  const zip = (file: string, data: Uint8Array, name = 'facturas.zip') => ({
    file,
    endpoint: ZIP_URL,
    name,
    type: 'application/zip',
    data,
  });
  const xlsx = (file: string, data: Uint8Array, name = 'plantilla.xlsx') => ({
    file,
    endpoint: EXCEL_URL,
    name,
    type: XLSX_MEDIA_TYPE,
    data,
  });
  return [
    zip('zip bomb (20 MB of zeros, ratio > 100)', zipBomb()),
    zip('zip declaring 1 GB uncompressed', zipDeclaring1Gb(cfdi)),
    zip('zip of 6,000 entries', zipOfManyEntries(6000)),
    zip('zip with a path-traversal entry', zipWithPathTraversal(cfdi)),
    zip('zip with an XML declaring an external entity', zipWithExternalEntity()),
    zip('renamed .exe', renamedExe()),
    zip('empty file', emptyFile()),
    xlsx('XLSX, formulas, 1,048,576 rows declared', await xlsxWithMillionRows()),
    xlsx('XLSX with an external entity', await xlsxWithExternalEntity()),
    xlsx('renamed .exe', renamedExe(), 'plantilla.xlsx'),
    xlsx('empty file', emptyFile()),
  ];
}

function reasonOf(body: unknown): string {
  const detail =
    body && typeof body === 'object' && 'detail' in body
      ? String((body as { detail: unknown }).detail)
      : JSON.stringify(body);
  return detail
    .replace(/\s*\n\s*/g, ' / ')
    .replace(/\|/g, '\\|')
    .slice(0, 60)
    .trimEnd();
}

async function benchHostile(server: RealServer, token: string, database: string): Promise<HostileRow[]> {
  const rows: HostileRow[] = [];
  const health: number[] = [];
  for (let i = 0; i < TRIES + 1; i += 1) {
    const started = performance.now();
    const res = await fetch(`${server.base}/api/health/`);
    await res.arrayBuffer();
    // The first call is a warm-up, not counted.
    if (i > 0) health.push(performance.now() - started);
  }
  rows.push({
    database,
    file: '(yardstick) GET /api/health/',
    endpoint: '/api/health/',
    status: '200',
    reason: '',
    ms: median(health),
  });
  for (const hostile of await hostileFiles()) {
    const times: number[] = [];
    const statuses = new Set<number>();
    let reason = '';
    for (let i = 0; i < TRIES; i += 1) {
      const started = performance.now();
      const result = await postFile(
        `${server.base}${hostile.endpoint}`,
        token,
        {
          field: hostile.endpoint === ZIP_URL ? 'zip_file' : 'file',
          name: hostile.name,
          type: hostile.type,
          data: hostile.data,
        },
        hostile.endpoint === ZIP_URL ? { payment_date: paymentDate } : {},
      );
      times.push(performance.now() - started);
      statuses.add(result.status);
      reason = reasonOf(result.body);
    }
    rows.push({
      database,
      file: hostile.file,
      endpoint: hostile.endpoint,
      status: [...statuses].join('/'),
      reason,
      ms: median(times),
    });
  }
  return rows;
}

function hostileTable(rows: HostileRow[]): string {
  const lines = [
    `| database | file | endpoint | status | Spanish reason (first 60 chars) | ms (median of ${TRIES}) |`,
    '| --- | --- | --- | --- | --- | ---: |',
  ];
  for (const row of rows) {
    lines.push(
      `| ${row.database} | ${row.file} | \`${row.endpoint}\` | ${row.status} | ${row.reason} | ${row.ms.toFixed(1)} |`,
    );
  }
  return lines.join('\n');
}

interface Parts {
  scenarios: boolean;
  hostile: boolean;
}

async function benchDatabase(
  database: string,
  databaseUrl: string | undefined,
  parts: Parts,
  hostileRows: HostileRow[],
): Promise<Row[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'flujo-bench-bulk-'));
  const rows: Row[] = [];
  let server: RealServer | null = null;
  try {
    console.log(`${database}: starting the server (migrations, demo data)…`);
    server = await startRealServer({ dataDir, databaseUrl });
    const token = await loginToken(server.base, DEMO_CORPORATE_USER);
    if (!parts.scenarios) {
      console.log(`${database}: hostile files, ${TRIES} tries each…`);
      hostileRows.push(...(await benchHostile(server, token, database)));
      return rows;
    }
    // A small warm-up so the first timed call does not pay for cold caches and JIT: 10 lines, same path.
    const warm = check(
      'warm-up upload/zip/',
      await postFile(
        `${server.base}/api/corporates/upload/zip/`,
        token,
        {
          field: 'zip_file',
          name: 'w.zip',
          type: 'application/zip',
          data: zipOf(bulkCfdi(newBatch(), 10, today)),
        },
        { payment_date: paymentDate },
      ),
    ) as unknown[];
    check(
      'warm-up pre-approved',
      await postJson(`${server.base}/api/corporates/quotes/pre-approved/`, token, warm),
    );

    console.log(`${database}: cfdi:import of ${COUNT} CFDI…`);
    const baseline = opsImport(dataDir, databaseUrl);
    rows.push({ database, scenario: `cfdi:import ${COUNT} CFDI (baseline)`, ms: baseline });
    console.log(`${database}: ZIP of ${COUNT} CFDI → quote → accept…`);
    rows.push({
      database,
      scenario: `ZIP ${COUNT} new CFDI → quote → accept`,
      ...(await zipScenario(server, token)),
    });
    console.log(`${database}: XLSX of ${COUNT} rows → quote → accept…`);
    rows.push({
      database,
      scenario: `XLSX ${COUNT} rows → quote → accept`,
      ...(await xlsxScenario(server, token)),
    });
    if (parts.hostile) {
      console.log(`${database}: hostile files, ${TRIES} tries each…`);
      hostileRows.push(...(await benchHostile(server, token, database)));
    }
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

function table(rows: Row[]): string {
  const lines = [
    '| database | scenario | ms | ratio to cfdi:import | calls (ms) |',
    '| --- | --- | ---: | ---: | --- |',
  ];
  for (const row of rows) {
    const baseline = rows.find((r) => r.database === row.database && r.scenario.startsWith('cfdi:import'));
    const ratio = row.ms !== null && baseline?.ms ? (row.ms / baseline.ms).toFixed(2) : '–';
    lines.push(
      `| ${row.database} | ${row.scenario} | ${row.ms === null ? (row.note ?? '–') : Math.round(row.ms)} | ${ratio} | ${row.steps ?? ''} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const onlyHostile = process.argv.slice(2).includes('--hostile');
  const parts: Parts = { scenarios: !onlyHostile, hostile: true };
  const rows: Row[] = [];
  const hostileRows: HostileRow[] = [];
  rows.push(...(await benchDatabase('PGlite', undefined, parts, hostileRows)));

  const given = process.env.BENCH_DATABASE_URL?.trim();
  let cluster: ThrowawayCluster | string | null = null;
  if (!given)
    cluster = startThrowawayCluster({ port: PG_PORT, database: 'flujo_bench', prefix: 'flujo-bench-pg-' });
  if (typeof cluster === 'string') {
    console.log(`PostgreSQL skipped: ${cluster} and BENCH_DATABASE_URL is unset`);
    rows.push({ database: 'PostgreSQL', scenario: 'skipped', ms: null, note: cluster });
  } else {
    const url = given ?? cluster?.url;
    try {
      rows.push(...(await benchDatabase('PostgreSQL', url, parts, hostileRows)));
    } finally {
      cluster?.stop();
    }
  }

  const load = loadavg().map((l) => l.toFixed(2));
  console.log(
    `\n${new Date().toISOString()} · ${cpus().length} × ${cpus()[0]?.model ?? 'CPU'} · load average ${load.join(' ')} · node ${process.version}\n`,
  );
  // With --hostile only a skipped PostgreSQL row can be here.
  if (rows.length > 0) console.log(table(rows));
  if (hostileRows.length > 0) console.log(`\nHostile files:\n\n${hostileTable(hostileRows)}`);
  const over = rows.filter(
    (row) => row.ms !== null && !row.scenario.startsWith('cfdi:import') && row.ms > 3000,
  );
  if (over.length > 0)
    console.log(
      `\nOver the issue's 3 s target: ${over.map((r) => `${r.database} ${r.scenario}`).join('; ')}`,
    );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
