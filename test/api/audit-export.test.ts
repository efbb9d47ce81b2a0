// Issue 17, the audit trail export (decision 0044): the demo corporate's XLSX opens with exceljs's reader, has
// the header row and one row per event of its received invoices in the range (counted in the database) with
// the stored hashes; a provider sees only the invoices it issued; bad ranges get 400 with Spanish messages per
// field; the calls need a session (401) and the corporate one a corporate account (403); the operator's
// `ops audit:export` writes every company's events.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import dayjs from 'dayjs';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { OPS_COMMANDS, runOpsCommand } from '../../server/ops/commands';
import { DEMO_CORPORATE } from '../../server/seed/demo-world';
import {
  AUDIT_RANGE_MESSAGES,
  AUDIT_TRAIL_COLUMNS,
  AUDIT_TRAIL_EMPTY_HEADER,
  auditTrailFileName,
  MAX_AUDIT_RANGE_DAYS,
} from '../../src/domain/audit-trail';
import { XLSX_MEDIA_TYPE } from '../../src/domain/bulk-upload';
import { PROVIDER_STATUS_LABELS } from '../../src/domain/invoice-status';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp, testConfig } from '../support/api-app';
import { DEMO_PROVIDER, getJson } from '../support/pronto-pago';

const TEST_MS = 120_000;
const PROVIDER_PATH = '/api/providers/audit-trail/';
const CORPORATE_PATH = '/api/corporates/audit-trail/';

interface StoredEvent {
  id: number;
  uuid: string;
  hash: string;
  to_status: number;
}

describe('audit trail export', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let corporate: Session;
  const db = () => ctx.database.db;
  const today = () => businessDate(new Date());
  // The demo world's histories reach back months; a year covers them all.
  const range = () => ({
    from: dayjs(today())
      .subtract(MAX_AUDIT_RANGE_DAYS - 1, 'day')
      .format('YYYY-MM-DD'),
    to: today(),
  });

  beforeAll(async () => {
    ctx = await createApiApp();
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
  }, TEST_MS);
  afterAll(() => ctx.close());

  /** The events of the side's invoices in the range, in id order, as the database holds them. */
  async function stored(side: 'emitter_rfc' | 'receiver_rfc', rfc: string, from: string, to: string) {
    const { rows } = await sql<StoredEvent>`
      select e.id, i.cfdi_uuid as uuid, encode(e.hash, 'hex') as hash, e.to_status
      from invoice_events e join invoices i on i.id = e.invoice_id
      where ${sql.ref(`i.${side}`)} = ${rfc}
        and (e.at at time zone 'America/Mexico_City')::date between ${from}::date and ${to}::date
      order by e.id`.execute(db());
    return rows;
  }

  async function sheetOf(body: Buffer): Promise<ExcelJS.Worksheet> {
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(body as unknown as ArrayBuffer);
    const sheet = workbook.worksheets[0];
    if (!sheet) throw new Error('no sheet');
    return sheet;
  }

  function values(sheet: ExcelJS.Worksheet): string[][] {
    const rows: string[][] = [];
    sheet.eachRow((row) => {
      rows.push((row.values as unknown[]).slice(1).map((value) => String(value ?? '')));
    });
    return rows;
  }

  it(
    'gives the demo corporate one row per event of its received invoices, with the stored hashes',
    async () => {
      const { from, to } = range();
      const res = await ctx.app.inject({
        method: 'GET',
        url: `${CORPORATE_PATH}?from=${from}&to=${to}`,
        headers: { authorization: `Bearer ${corporate.access}` },
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe(XLSX_MEDIA_TYPE);
      expect(res.headers[AUDIT_TRAIL_EMPTY_HEADER]).toBe('false');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="${auditTrailFileName(from, to)}"`,
      );
      const rows = values(await sheetOf(res.rawPayload));
      expect(rows[0]).toEqual([...AUDIT_TRAIL_COLUMNS]);
      const expected = await stored('receiver_rfc', DEMO_CORPORATE.rfc, from, to);
      expect(expected.length).toBeGreaterThan(50);
      const body = rows.slice(1);
      expect(body.length).toBe(expected.length);
      // Columns: Folio, UUID, De, A, Actor, Empresa, Motivo, Fecha y hora, Hash.
      expect(body.map((row) => [row[1], row[3], row[8]])).toEqual(
        expected.map((event) => [event.uuid, PROVIDER_STATUS_LABELS[event.to_status as 10], event.hash]),
      );
      for (const row of body) expect(row[7]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
      // The corporate's own decisions name its user and its company.
      expect(body.some((row) => row[4] === 'corporativo.demo' && row[5] === DEMO_CORPORATE.name)).toBe(true);
    },
    TEST_MS,
  );

  it(
    'gives a provider only the invoices it issued, and a short range only its days',
    async () => {
      const { from, to } = range();
      const res = await getJson(ctx.app, `${PROVIDER_PATH}?from=${from}&to=${to}`, provider);
      expect(res.statusCode, res.body).toBe(200);
      const body = values(await sheetOf(res.rawPayload)).slice(1);
      const mine = await stored('emitter_rfc', DEMO_PROVIDER.rfc, from, to);
      expect(body.map((row) => row[1])).toEqual(mine.map((event) => event.uuid));
      const theirs = new Set(
        (
          await db()
            .selectFrom('invoices')
            .select('cfdi_uuid')
            .where('emitter_rfc', '<>', DEMO_PROVIDER.rfc)
            .execute()
        ).map((row) => row.cfdi_uuid),
      );
      expect(body.some((row) => theirs.has(row[1] ?? ''))).toBe(false);

      const day = dayjs(today()).subtract(10, 'day').format('YYYY-MM-DD');
      const short = await getJson(ctx.app, `${PROVIDER_PATH}?from=${day}&to=${today()}`, provider);
      expect(short.statusCode).toBe(200);
      const shortRows = values(await sheetOf(short.rawPayload)).slice(1);
      expect(shortRows.length).toBe((await stored('emitter_rfc', DEMO_PROVIDER.rfc, day, today())).length);
    },
    TEST_MS,
  );

  it(
    'answers a range with no events with the header row alone',
    async () => {
      const res = await getJson(ctx.app, `${CORPORATE_PATH}?from=2001-01-01&to=2001-01-31`, corporate);
      expect(res.statusCode).toBe(200);
      expect(res.headers[AUDIT_TRAIL_EMPTY_HEADER]).toBe('true');
      expect(values(await sheetOf(res.rawPayload))).toEqual([[...AUDIT_TRAIL_COLUMNS]]);
    },
    TEST_MS,
  );

  it('refuses bad ranges with Spanish messages per field', async () => {
    const cases: [string, Record<string, string[]>][] = [
      ['', { from: [AUDIT_RANGE_MESSAGES.fromRequired], to: [AUDIT_RANGE_MESSAGES.toRequired] }],
      [
        'from=2026-02-30&to=hoy',
        { from: [AUDIT_RANGE_MESSAGES.invalid], to: [AUDIT_RANGE_MESSAGES.invalid] },
      ],
      ['from=2026-03-01&to=2026-02-01', { to: [AUDIT_RANGE_MESSAGES.toBeforeFrom] }],
      ['from=2025-01-01&to=2026-01-02', { to: [AUDIT_RANGE_MESSAGES.tooLong] }],
    ];
    for (const [query, errors] of cases) {
      const res = await getJson(ctx.app, `${CORPORATE_PATH}?${query}`, corporate);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual(errors);
    }
    // A whole leap year plus nothing: 366 days is the cap, inclusive.
    expect(
      (await getJson(ctx.app, `${PROVIDER_PATH}?from=2024-01-01&to=2024-12-31`, provider)).statusCode,
    ).toBe(200);
  });

  it('needs a session, and a corporate account for the corporate path', async () => {
    const query = `?from=${today()}&to=${today()}`;
    expect((await getJson(ctx.app, `${CORPORATE_PATH}${query}`, null)).statusCode).toBe(401);
    expect((await getJson(ctx.app, `${PROVIDER_PATH}${query}`, null)).statusCode).toBe(401);
    expect((await getJson(ctx.app, `${CORPORATE_PATH}${query}`, provider)).statusCode).toBe(403);
  });

  it(
    "writes every company's events for the operator, with emisor and receptor",
    async () => {
      const dir = mkdtempSync(join(tmpdir(), 'flujo-audit-export-'));
      try {
        const { from, to } = range();
        const lines: string[] = [];
        const run = (args: string[]) =>
          runOpsCommand(OPS_COMMANDS['audit:export'] as NonNullable<(typeof OPS_COMMANDS)[string]>, args, {
            config: testConfig(),
            database: ctx.database,
            cwd: dir,
            output: { out: (line) => lines.push(line), err: (line) => lines.push(line) },
          });
        expect(await run(['--from', from, '--to', to])).toBe(0);
        const rows = values(await sheetOf(readFileSync(join(dir, auditTrailFileName(from, to)))));
        expect(rows[0]).toEqual([...AUDIT_TRAIL_COLUMNS, 'Emisor', 'Receptor']);
        const { rows: all } = await sql<{ n: string }>`
          select count(*) as n from invoice_events
          where (at at time zone 'America/Mexico_City')::date between ${from}::date and ${to}::date`.execute(
          db(),
        );
        expect(rows.length - 1).toBe(Number(all[0]?.n));
        expect(lines.join('\n')).toContain(`${Number(all[0]?.n).toLocaleString('en-US')} eventos`);
        // The file is never overwritten; a bad range is a usage error in Spanish.
        expect(await run(['--from', from, '--to', to])).toBe(2);
        expect(await run(['--from', to, '--to', from, '--out', 'x.xlsx'])).toBe(2);
        expect(lines.join('\n')).toContain(AUDIT_RANGE_MESSAGES.toBeforeFrom);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    TEST_MS,
  );
});
