import dayjs from 'dayjs';
import ExcelJS from 'exceljs';
import type { LightMyRequestResponse } from 'fastify';
import { strToU8, zipSync } from 'fflate';
import { sql } from 'kysely';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCfdiXml } from '../../server/cfdi/build-cfdi';
import { businessDate } from '../../server/http/business-date';
import { importCfdiFiles } from '../../server/modules/sat/cfdi-import.service';
import { DEMO_CORPORATE } from '../../server/seed/demo-world';
import {
  BULK_UPLOAD_MESSAGES,
  MAX_TEMPLATE_ROWS,
  MAX_ZIP_ENTRIES,
  TEMPLATE_COLUMNS,
  XLSX_MEDIA_TYPE,
} from '../../src/domain/bulk-upload';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { PAYMENT_DATE_TOO_FAR } from '../../src/domain/payment-date';
import {
  TemplateUploadResult,
  ZipBulkUploadResponse,
  ZipUploadRefusal,
} from '../../src/domain/schemas/corporates';
import {
  ExcelUploadResponse,
  TemplateUploadResponse,
  ZipUploadResponse,
} from '../../src/domain/schemas/quotations';
import { externalEntityXml, fixtureRfcs } from '../fixtures/cfdi';
import {
  emptyFile,
  notTemplateWorkbook,
  renamedExe,
  TRAVERSAL_ENTRY,
  xlsxWithExternalEntity,
  xlsxWithMillionRows,
  zipBomb,
  zipDeclaring1Gb,
  zipOfManyEntries,
  zipWithExternalEntity,
  zipWithPathTraversal,
} from '../fixtures/hostile-uploads';
import { bearer, type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp, testConfig } from '../support/api-app';
import { testAuthenticity, testAuthority } from '../support/demo-authority';
import { addCompanyWithUser, advanceTo, DEMO_PROVIDER, importInvoice } from '../support/pronto-pago';

const TEMPLATE = '/api/corporates/template/';
const EXCEL = '/api/corporates/upload/excel/';
const ZIP = '/api/corporates/upload/zip/';
const ZIP_TYPE = 'application/zip';
// Building a bomb or 6,000 entries costs a moment on a busy machine; no test asserts on time.
const SLOW = 60_000;

describe('bulk authorization by file: the XLSX template, its upload and a ZIP of CFDI', () => {
  let ctx: ApiTestContext;
  let corporate: Session;
  let provider: Session;
  let otherCorporate: Session;
  let otherCorporateInvoice: string;
  // One instant for the whole suite (the app's injectable clock), so dates do not move under a test.
  const NOW = new Date();
  const today = businessDate(NOW);
  const inDays = (days: number) => dayjs(today).add(days, 'day').format('YYYY-MM-DD');
  const db = () => ctx.database.db;

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    await addCompanyWithUser(db(), {
      rfc: fixtureRfcs.corporate,
      name: 'CORPORATIVO NORTEÑO',
      username: 'corporativo.norteno',
      isCorporate: true,
    });
    otherCorporate = await sessionFor(ctx.app, 'corporativo.norteno');
    const imported = await importCfdiFiles(
      db(),
      [{ name: 'ajena.xml', content: cfdiXml({ folio: 'N-1', daysAgo: 4, receiver: 'other' }) }],
      { actorLabel: 'prueba', authenticity: testAuthenticity(db()) },
    );
    otherCorporateInvoice = imported.imported[0]?.uuid ?? '';
    expect(otherCorporateInvoice).not.toBe('');
  }, SLOW);
  afterAll(() => ctx.close());

  let folioSequence = 50_000;
  /** A stamped CFDI of the demo provider to the demo corporate (or the other corporate), emitted daysAgo. */
  function cfdiXml(options: { folio?: string; daysAgo?: number; receiver?: 'demo' | 'other' } = {}): string {
    folioSequence += 1;
    const receiver =
      options.receiver === 'other'
        ? { rfc: fixtureRfcs.corporate, name: 'CORPORATIVO NORTEÑO' }
        : { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name };
    return buildCfdiXml(
      {
        serie: 'Z',
        folio: options.folio ?? String(folioSequence),
        issuedAt: `${dayjs(today)
          .subtract(options.daysAgo ?? 5, 'day')
          .format('YYYY-MM-DD')}T10:00:00`,
        issuer: { rfc: DEMO_PROVIDER.rfc, name: DEMO_PROVIDER.name },
        receiver,
        subtotal: '86206.90',
        currency: 'MXN',
        paymentMethod: 'PPD',
        description: 'Servicio de carga masiva',
      },
      testAuthority(),
    );
  }

  /** What the database holds that an upload must never change when it refuses. */
  async function footprint() {
    const { rows } = await sql<{ invoices: number; events: number; statuses: string }>`
      select (select count(*)::int from invoices) as invoices,
             (select count(*)::int from invoice_events) as events,
             (select string_agg(id || ':' || status, ',' order by id) from invoices) as statuses`.execute(
      db(),
    );
    return rows[0];
  }

  function upload(
    url: string,
    session: Session | null,
    file: { field: string; name: string; type: string; data: Uint8Array } | null,
    fields: Record<string, string> = {},
  ): Promise<LightMyRequestResponse> {
    const form = new FormData();
    // A copy in a plain ArrayBuffer, what Blob accepts.
    if (file) form.append(file.field, new Blob([new Uint8Array(file.data)], { type: file.type }), file.name);
    for (const [name, value] of Object.entries(fields)) form.append(name, value);
    return ctx.app.inject({
      method: 'POST',
      url,
      payload: form,
      headers: session ? bearer(session) : {},
    });
  }
  const uploadZip = (
    data: Uint8Array,
    paymentDate = inDays(30),
    session = corporate,
    name = 'facturas.zip',
  ) => upload(ZIP, session, { field: 'zip_file', name, type: ZIP_TYPE, data }, { payment_date: paymentDate });
  const uploadXlsx = (
    data: Uint8Array,
    session = corporate,
    name = 'plantilla.xlsx',
    type = XLSX_MEDIA_TYPE,
  ) => upload(EXCEL, session, { field: 'file', name, type, data });

  async function downloadTemplate(session = corporate): Promise<ExcelJS.Workbook> {
    const res = await ctx.app.inject({ method: 'GET', url: TEMPLATE, headers: bearer(session) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe(XLSX_MEDIA_TYPE);
    expect(res.headers['content-disposition']).toBe(
      `attachment; filename="plantilla-pre-autorizacion-${today}.xlsx"`,
    );
    const workbook = new ExcelJS.Workbook();
    await workbook.xlsx.load(res.rawPayload as unknown as Parameters<typeof workbook.xlsx.load>[0]);
    return workbook;
  }

  async function xlsxBytes(workbook: ExcelJS.Workbook): Promise<Uint8Array> {
    return new Uint8Array(await workbook.xlsx.writeBuffer());
  }

  /** The rows of the template's sheet as objects keyed by header. */
  function sheetRows(workbook: ExcelJS.Workbook) {
    const sheet = workbook.worksheets[0] as ExcelJS.Worksheet;
    const headers = (sheet.getRow(1).values as unknown[]).slice(1).map(String);
    const rows: Record<string, unknown>[] = [];
    for (let number = 2; number <= sheet.rowCount; number += 1) {
      const values = (sheet.getRow(number).values as unknown[]).slice(1);
      rows.push(Object.fromEntries(headers.map((header, i) => [header, values[i]])));
    }
    return { sheet, headers, rows };
  }

  async function preAuthorizableUuids(): Promise<Set<string>> {
    const rows = await db()
      .selectFrom('invoices')
      .select('cfdi_uuid')
      .where('receiver_rfc', '=', DEMO_CORPORATE.rfc)
      .where('status', 'in', [InvoiceStatus.AVAILABLE, InvoiceStatus.PENDING, InvoiceStatus.REJECTED])
      .execute();
    return new Set(rows.map((row) => row.cfdi_uuid));
  }

  describe('GET corporates/template/', () => {
    it('lists, with Spanish headers and a frozen header row, exactly the invoices the corporate may pre-authorize', async () => {
      const pending = await importInvoice(db(), { daysAgo: 6, today });
      await advanceTo(db(), pending, 'pending');
      const approved = await importInvoice(db(), { daysAgo: 6, today });
      await advanceTo(db(), approved, 'approved', inDays(20));
      const workbook = await downloadTemplate();
      const { sheet, headers, rows } = sheetRows(workbook);
      expect(headers).toEqual(Object.values(TEMPLATE_COLUMNS));
      expect(sheet.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
      const listed = rows.map((row) => row[TEMPLATE_COLUMNS.fiscalFolio]);
      expect(new Set(listed)).toEqual(await preAuthorizableUuids());
      const approvedUuid = await db()
        .selectFrom('invoices')
        .select('cfdi_uuid')
        .where('id', '=', approved)
        .executeTakeFirstOrThrow();
      expect(listed).not.toContain(approvedUuid.cfdi_uuid);
      expect(listed).not.toContain(otherCorporateInvoice);

      // Each row carries the invoice's facts and a date validation from emission to emission + 150 days.
      const first = await db()
        .selectFrom('invoices')
        .select(['cfdi_uuid', 'emitter_rfc', 'emitter_name', 'date_of_emission', 'currency', 'amount'])
        .where('cfdi_uuid', '=', String(listed[0]))
        .executeTakeFirstOrThrow();
      const row = rows[0] as Record<string, unknown>;
      expect(row[TEMPLATE_COLUMNS.emitterRfc]).toBe(first.emitter_rfc);
      expect(row[TEMPLATE_COLUMNS.emitterName]).toBe(first.emitter_name);
      expect((row[TEMPLATE_COLUMNS.emissionDate] as Date).toISOString().slice(0, 10)).toBe(
        first.date_of_emission,
      );
      expect(row[TEMPLATE_COLUMNS.currency]).toBe(first.currency);
      expect(row[TEMPLATE_COLUMNS.amount]).toBe(Number(first.amount));
      const validation = sheet.getRow(2).getCell(headers.length).dataValidation;
      expect(validation).toMatchObject({ type: 'date', operator: 'between' });
      const [from, to] = (validation.formulae ?? []) as unknown[];
      const asIso = (value: unknown) =>
        value instanceof Date ? value.toISOString().slice(0, 10) : String(value);
      expect(asIso(from)).toBe(first.date_of_emission);
      expect(asIso(to)).toBe(dayjs(first.date_of_emission).add(150, 'day').format('YYYY-MM-DD'));
    });

    it('answers 401 without a session and 403 to a provider', async () => {
      expect((await ctx.app.inject({ method: 'GET', url: TEMPLATE })).statusCode).toBe(401);
      const res = await ctx.app.inject({ method: 'GET', url: TEMPLATE, headers: bearer(provider) });
      expect(res.statusCode).toBe(403);
    });
  });

  describe('POST corporates/upload/excel/', () => {
    it('a filled template with 20 payment dates gives those 20 invoices back, and changes nothing', async () => {
      for (let i = 0; i < 20; i += 1) await importInvoice(db(), { daysAgo: 2 + (i % 10), today });
      const workbook = await downloadTemplate();
      const { sheet, headers, rows } = sheetRows(workbook);
      expect(rows.length).toBeGreaterThanOrEqual(20);
      const dateColumn = headers.indexOf(TEMPLATE_COLUMNS.paymentDate) + 1;
      const chosen = new Map<string, string>();
      for (let i = 0; i < 20; i += 1) {
        const date = inDays(20 + i);
        // A real date cell, as a spreadsheet program writes it.
        sheet.getRow(i + 2).getCell(dateColumn).value = new Date(`${date}T00:00:00Z`);
        chosen.set(String(rows[i]?.[TEMPLATE_COLUMNS.fiscalFolio]), date);
      }
      const before = await footprint();
      const res = await uploadXlsx(await xlsxBytes(workbook));
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<TemplateUploadResult>();
      expect(is(body, TemplateUploadResult)).toBe(true);
      // The shapes the spec's client reads (§3: excel upload, quotation template upload) hold too.
      expect(is(body, ExcelUploadResponse) && is(body, TemplateUploadResponse)).toBe(true);
      expect(body.validation_errors).toEqual({});
      expect(body.processed_invoices).toHaveLength(20);
      for (const line of body.processed_invoices) {
        expect(line.payment_date).toBe(chosen.get(line.fiscal_folio));
      }
      const ids = await db()
        .selectFrom('invoices')
        .select(['id', 'cfdi_uuid'])
        .where('cfdi_uuid', 'in', [...chosen.keys()])
        .execute();
      expect(new Set(body.processed_invoices.map((line) => line.invoice_id))).toEqual(
        new Set(ids.map((row) => row.id)),
      );
      expect(await footprint()).toEqual(before);
    });

    it('names the row and column of every wrong row, and then processes none', async () => {
      const workbook = await downloadTemplate();
      const { sheet, headers, rows } = sheetRows(workbook);
      const uuidColumn = headers.indexOf(TEMPLATE_COLUMNS.fiscalFolio) + 1;
      const dateColumn = headers.indexOf(TEMPLATE_COLUMNS.paymentDate) + 1;
      const emission = ((rows[1] as Record<string, unknown>)[TEMPLATE_COLUMNS.emissionDate] as Date)
        .toISOString()
        .slice(0, 10);
      sheet.getRow(2).getCell(dateColumn).value = inDays(30); // fine, as 'YYYY-MM-DD' text
      sheet.getRow(3).getCell(dateColumn).value = dayjs(emission).add(151, 'day').format('DD/MM/YYYY');
      sheet.getRow(4).getCell(dateColumn).value = '31/02/2026';
      sheet.getRow(5).getCell(uuidColumn).value = otherCorporateInvoice;
      sheet.getRow(5).getCell(dateColumn).value = inDays(30);
      sheet.getRow(6).getCell(dateColumn).value = { formula: 'TODAY()+30', result: new Date() };
      sheet.getRow(7).getCell(uuidColumn).value = '00000000-0000-4000-8000-000000000000';
      sheet.getRow(7).getCell(dateColumn).value = inDays(30);
      const before = await footprint();
      const res = await uploadXlsx(await xlsxBytes(workbook));
      expect(res.statusCode, res.body).toBe(200);
      const body = res.json<TemplateUploadResult>();
      expect(body.processed_invoices).toEqual([]);
      const date = TEMPLATE_COLUMNS.paymentDate;
      const folio = TEMPLATE_COLUMNS.fiscalFolio;
      expect(body.validation_errors).toEqual({
        '3.payment_date': [`Fila 3, columna «${date}»: ${PAYMENT_DATE_TOO_FAR}`],
        '4.payment_date': [`Fila 4, columna «${date}»: Debe ser una fecha válida`],
        '5.fiscal_folio': [`Fila 5, columna «${folio}»: ${BULK_UPLOAD_MESSAGES.notReceived}`],
        '6.payment_date': [`Fila 6, columna «${date}»: ${BULK_UPLOAD_MESSAGES.formula}`],
        '7.fiscal_folio': [`Fila 7, columna «${folio}»: ${BULK_UPLOAD_MESSAGES.notReceived}`],
      });
      expect(await footprint()).toEqual(before);
    });

    it('refuses an invoice the lifecycle no longer lets be pre-authorized, in its words', async () => {
      const approved = await importInvoice(db(), { daysAgo: 6, today });
      await advanceTo(db(), approved, 'approved', inDays(20));
      const row = await db()
        .selectFrom('invoices')
        .select(['cfdi_uuid', 'serie', 'folio'])
        .where('id', '=', approved)
        .executeTakeFirstOrThrow();
      const workbook = new ExcelJS.Workbook();
      const sheet = workbook.addWorksheet('Facturas');
      sheet.addRow([TEMPLATE_COLUMNS.fiscalFolio, TEMPLATE_COLUMNS.paymentDate]);
      sheet.addRow([row.cfdi_uuid, inDays(30)]);
      const res = await uploadXlsx(await xlsxBytes(workbook));
      expect(res.json()).toEqual({
        processed_invoices: [],
        validation_errors: {
          '2.fiscal_folio': [
            `Fila 2, columna «${TEMPLATE_COLUMNS.fiscalFolio}»: La factura ${row.serie}-${row.folio} no puede autorizarse: su estado es «Autorizada».`,
          ],
        },
      });
    });

    it('refuses another corporate uploading the demo corporate’s template rows', async () => {
      const workbook = await downloadTemplate();
      const { sheet, headers } = sheetRows(workbook);
      sheet.getRow(2).getCell(headers.indexOf(TEMPLATE_COLUMNS.paymentDate) + 1).value = inDays(30);
      const res = await uploadXlsx(await xlsxBytes(workbook), otherCorporate);
      expect(res.statusCode).toBe(200);
      expect(res.json<TemplateUploadResult>().processed_invoices).toEqual([]);
      expect(Object.values(res.json<TemplateUploadResult>().validation_errors).flat()).toEqual([
        `Fila 2, columna «${TEMPLATE_COLUMNS.fiscalFolio}»: ${BULK_UPLOAD_MESSAGES.notReceived}`,
      ]);
    });

    it(
      'refuses an XLSX declaring 1,048,576 rows (with formulas) before reading them: 400, Spanish, nothing written',
      async () => {
        const before = await footprint();
        const res = await uploadXlsx(await xlsxWithMillionRows());
        expect(res.statusCode).toBe(400);
        expect(res.json()).toEqual({
          detail: BULK_UPLOAD_MESSAGES.sheetTooLong(1_048_576, MAX_TEMPLATE_ROWS),
        });
        expect(await footprint()).toEqual(before);
      },
      SLOW,
    );

    it('refuses an empty file (400), a ZIP or a renamed file (415), a file that is not the template or has a DOCTYPE (400)', async () => {
      const before = await footprint();
      const empty = await uploadXlsx(emptyFile());
      expect([empty.statusCode, empty.json()]).toEqual([400, { detail: BULK_UPLOAD_MESSAGES.empty }]);
      const zip = await uploadXlsx(
        zipSync({ 'a.xml': strToU8('<a/>') }),
        corporate,
        'facturas.zip',
        ZIP_TYPE,
      );
      expect([zip.statusCode, zip.json()]).toEqual([415, { detail: BULK_UPLOAD_MESSAGES.notXlsx }]);
      const exe = await uploadXlsx(renamedExe());
      expect([exe.statusCode, exe.json()]).toEqual([415, { detail: BULK_UPLOAD_MESSAGES.notXlsx }]);
      const other = notTemplateWorkbook();
      const notTemplate = await uploadXlsx(await xlsxBytes(other));
      expect([notTemplate.statusCode, notTemplate.json()]).toEqual([
        400,
        { detail: BULK_UPLOAD_MESSAGES.missingColumn(TEMPLATE_COLUMNS.fiscalFolio) },
      ]);
      // A workbook part with an external entity (XXE), rezipped as a spreadsheet program would.
      const xxe = await uploadXlsx(await xlsxWithExternalEntity(other));
      expect([xxe.statusCode, xxe.json()]).toEqual([400, { detail: BULK_UPLOAD_MESSAGES.xlsxDtd }]);
      const missing = await upload(EXCEL, corporate, null, { otro: 'x' });
      expect([missing.statusCode, missing.json()]).toEqual([
        400,
        { detail: BULK_UPLOAD_MESSAGES.fileMissing('file') },
      ]);
      const json = await ctx.app.inject({
        method: 'POST',
        url: EXCEL,
        payload: { file: 'x' },
        headers: bearer(corporate),
      });
      expect([json.statusCode, json.json()]).toEqual([415, { detail: BULK_UPLOAD_MESSAGES.notMultipart }]);
      expect(await footprint()).toEqual(before);
    });

    it('answers 401 without a session and 403 to a provider', async () => {
      const workbook = await downloadTemplate();
      const bytes = await xlsxBytes(workbook);
      expect((await uploadXlsx(bytes, null as unknown as Session)).statusCode).toBe(401);
      expect((await uploadXlsx(bytes, provider)).statusCode).toBe(403);
    });
  });

  describe('POST corporates/upload/zip/', () => {
    it('gives back one line per XML in the ZIP, importing in one go the invoices Flujo did not have', async () => {
      const existingId = await importInvoice(db(), { daysAgo: 8, today });
      const existing = await db()
        .selectFrom('invoices')
        .select(['cfdi_xml', 'cfdi_uuid'])
        .where('id', '=', existingId)
        .executeTakeFirstOrThrow();
      const fresh = Array.from({ length: 12 }, () => cfdiXml({ daysAgo: 10 }));
      const files: Record<string, Uint8Array> = { 'ya-en-flujo.xml': strToU8(existing.cfdi_xml) };
      fresh.forEach((xml, i) => {
        files[`nuevas/factura-${i + 1}.xml`] = strToU8(xml);
      });
      files['nuevas/factura-1.pdf'] = strToU8('%PDF-1.7 representación impresa');
      const before = await footprint();
      const paymentDate = inDays(45);
      const res = await uploadZip(zipSync(files), paymentDate);
      expect(res.statusCode, res.body).toBe(200);
      const lines = res.json<ZipBulkUploadResponse>();
      expect(is(lines, ZipBulkUploadResponse) && is(lines, ZipUploadResponse)).toBe(true);
      expect(lines).toHaveLength(13);
      expect(lines[0]).toEqual({ invoice_id: existingId, payment_date: paymentDate });
      expect(lines.every((line) => line.payment_date === paymentDate)).toBe(true);
      const imported = await db()
        .selectFrom('invoices')
        .select(['id', 'status'])
        .where(
          'id',
          'in',
          lines.map((line) => line.invoice_id),
        )
        .execute();
      expect(imported).toHaveLength(13);
      // Imported as Por Autorizar, and no status changed by the upload.
      expect(imported.every((row) => row.status === InvoiceStatus.AVAILABLE)).toBe(true);
      const after = await footprint();
      expect(after?.invoices).toBe((before?.invoices ?? 0) + 12);
      expect(after?.events).toBe((before?.events ?? 0) + 12);
    });

    it('a foreign-receiver XML anywhere: 400 naming that file, and nothing imported', async () => {
      const files: Record<string, Uint8Array> = {};
      for (let i = 1; i <= 5; i += 1) files[`f-${i}.xml`] = strToU8(cfdiXml());
      files['ajena.xml'] = strToU8(cfdiXml({ receiver: 'other' }));
      files['xxe.xml'] = strToU8(externalEntityXml());
      const before = await footprint();
      const res = await uploadZip(zipSync(files));
      expect(res.statusCode).toBe(400);
      const body = res.json<ZipUploadRefusal>();
      expect(is(body, ZipUploadRefusal)).toBe(true);
      expect(body.files).toEqual([
        { name: 'ajena.xml', reason: BULK_UPLOAD_MESSAGES.foreignReceiver(fixtureRfcs.corporate) },
        { name: 'xxe.xml', reason: 'El XML contiene declaraciones DOCTYPE o ENTITY, que no se permiten' },
      ]);
      expect(body.detail.split('\n')).toEqual([
        BULK_UPLOAD_MESSAGES.zipRefused(2),
        `ajena.xml: ${BULK_UPLOAD_MESSAGES.foreignReceiver(fixtureRfcs.corporate)}`,
        'xxe.xml: El XML contiene declaraciones DOCTYPE o ENTITY, que no se permiten',
      ]);
      expect(await footprint()).toEqual(before);
    });

    it('refuses a payment date beyond 150 days of an emission, naming the file', async () => {
      const res = await uploadZip(zipSync({ 'vieja.xml': strToU8(cfdiXml({ daysAgo: 140 })) }), inDays(20));
      expect(res.statusCode).toBe(400);
      expect(res.json<ZipUploadRefusal>().files).toEqual([
        {
          name: 'vieja.xml',
          reason: `Fecha de pago ${dayjs(inDays(20)).format('DD/MM/YYYY')}: ${PAYMENT_DATE_TOO_FAR}`,
        },
      ]);
    });

    it('checks the payment date field: required, a real date, after today', async () => {
      const zip = zipSync({ 'a.xml': strToU8(cfdiXml()) });
      const none = await upload(ZIP, corporate, {
        field: 'zip_file',
        name: 'a.zip',
        type: ZIP_TYPE,
        data: zip,
      });
      expect([none.statusCode, none.json()]).toEqual([400, { payment_date: ['Requerido'] }]);
      const bad = await uploadZip(zip, '2026-02-30');
      expect([bad.statusCode, bad.json()]).toEqual([400, { payment_date: ['Debe ser una fecha válida'] }]);
      const past = await uploadZip(zip, today);
      expect([past.statusCode, past.json()]).toEqual([
        400,
        { payment_date: ['La fecha de pago debe ser posterior a hoy.'] },
      ]);
    });

    describe('hostile files: a clear 4xx in Spanish, nothing written', () => {
      let before: Awaited<ReturnType<typeof footprint>>;
      beforeAll(async () => {
        before = await footprint();
      });
      afterAll(async () => {
        expect(await footprint()).toEqual(before);
      });

      it(
        'a zip bomb: an entry compressed more than 100:1',
        async () => {
          const res = await uploadZip(zipBomb());
          expect([res.statusCode, res.json()]).toEqual([
            400,
            { detail: BULK_UPLOAD_MESSAGES.suspiciousRatio('bomba.xml') },
          ]);
        },
        SLOW,
      );

      it('a zip declaring 1 GB uncompressed', async () => {
        // Each central-directory record claims 512 MB: read from the directory, never inflated.
        const res = await uploadZip(zipDeclaring1Gb(() => cfdiXml()));
        expect(res.statusCode).toBe(400);
        expect(res.json().detail).toMatch(/^El contenido del archivo descomprimido excede \d+ MB/);
      });

      it(
        'a zip of 6,000 entries',
        async () => {
          const res = await uploadZip(zipOfManyEntries(6000));
          expect([res.statusCode, res.json()]).toEqual([
            400,
            { detail: BULK_UPLOAD_MESSAGES.tooManyEntries(MAX_ZIP_ENTRIES) },
          ]);
        },
        SLOW,
      );

      it('a path-traversal entry', async () => {
        const res = await uploadZip(zipWithPathTraversal(() => cfdiXml()));
        expect([res.statusCode, res.json()]).toEqual([
          400,
          { detail: BULK_UPLOAD_MESSAGES.unsafePath(TRAVERSAL_ENTRY) },
        ]);
      });

      it('an XML with an external entity (XXE)', async () => {
        const res = await uploadZip(zipWithExternalEntity());
        expect(res.statusCode).toBe(400);
        expect(res.json<ZipUploadRefusal>().files).toEqual([
          { name: 'xxe.xml', reason: 'El XML contiene declaraciones DOCTYPE o ENTITY, que no se permiten' },
        ]);
      });

      it('a renamed .exe, a wrong media type, an empty file, no file', async () => {
        const exe = await uploadZip(renamedExe());
        expect([exe.statusCode, exe.json()]).toEqual([415, { detail: BULK_UPLOAD_MESSAGES.notZip }]);
        const zip = zipSync({ 'a.xml': strToU8(cfdiXml()) });
        const wrongType = await upload(
          ZIP,
          corporate,
          { field: 'zip_file', name: 'facturas.zip', type: 'application/x-msdownload', data: zip },
          { payment_date: inDays(30) },
        );
        expect([wrongType.statusCode, wrongType.json()]).toEqual([
          415,
          { detail: BULK_UPLOAD_MESSAGES.notZip },
        ]);
        const empty = await uploadZip(emptyFile());
        expect([empty.statusCode, empty.json()]).toEqual([400, { detail: BULK_UPLOAD_MESSAGES.empty }]);
        const none = await upload(ZIP, corporate, null, { payment_date: inDays(30) });
        expect([none.statusCode, none.json()]).toEqual([
          400,
          { detail: BULK_UPLOAD_MESSAGES.fileMissing('zip_file') },
        ]);
      });

      it('a file over the upload limit', async () => {
        const huge = new Uint8Array(21 * 1024 * 1024);
        huge.set([0x50, 0x4b, 0x03, 0x04]);
        const res = await uploadZip(huge);
        expect([res.statusCode, res.json()]).toEqual([
          413,
          { detail: BULK_UPLOAD_MESSAGES.tooLarge(20 * 1024 * 1024) },
        ]);
      });

      it('another corporate uploading the demo corporate’s XML, a provider, no session', async () => {
        const zip = zipSync({ 'a.xml': strToU8(cfdiXml()) });
        const other = await uploadZip(zip, inDays(30), otherCorporate);
        expect(other.statusCode).toBe(400);
        expect(other.json<ZipUploadRefusal>().files).toEqual([
          { name: 'a.xml', reason: BULK_UPLOAD_MESSAGES.foreignReceiver(DEMO_CORPORATE.rfc) },
        ]);
        expect((await uploadZip(zip, inDays(30), provider)).statusCode).toBe(403);
        const anonymous = await upload(
          ZIP,
          null,
          { field: 'zip_file', name: 'a.zip', type: ZIP_TYPE, data: zip },
          { payment_date: inDays(30) },
        );
        expect(anonymous.statusCode).toBe(401);
      });
    });
  });
});

describe('UPLOAD_MAX_MB reaches the upload routes', () => {
  let ctx: ApiTestContext;
  let corporate: Session;
  const MB = 1024 * 1024;
  beforeAll(async () => {
    ctx = await createApiApp({ config: testConfig({ UPLOAD_MAX_MB: '1' }) });
    corporate = await sessionFor(ctx.app, 'corporativo.demo');
  }, SLOW);
  afterAll(() => ctx.close());

  function post(size: number) {
    const data = new Uint8Array(size);
    data.set([0x50, 0x4b, 0x03, 0x04]);
    const form = new FormData();
    form.append('zip_file', new Blob([data], { type: ZIP_TYPE }), 'grande.zip');
    form.append('payment_date', dayjs().add(30, 'day').format('YYYY-MM-DD'));
    return ctx.app.inject({ method: 'POST', url: ZIP, payload: form, headers: bearer(corporate) });
  }

  it('refuses from the declared length, and while reading a file just over the limit: 413 in Spanish', async () => {
    const declared = await post(2 * MB);
    expect([declared.statusCode, declared.json()]).toEqual([
      413,
      { detail: BULK_UPLOAD_MESSAGES.tooLarge(MB) },
    ]);
    // Within the multipart allowance of the declared length: the parser stops it at the limit.
    const streamed = await post(MB + 10 * 1024);
    expect([streamed.statusCode, streamed.json()]).toEqual([
      413,
      { detail: BULK_UPLOAD_MESSAGES.tooLarge(MB) },
    ]);
  });
});
