import dayjs from 'dayjs';
import { unzipSync } from 'fflate';
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { DOWNLOAD_MESSAGES } from '../../server/modules/advanced-invoices/advanced-invoices.service';
import { disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import { invoiceLabel } from '../../server/modules/invoices/invoice-access';
import { DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { MAX_DOWNLOAD_INVOICES } from '../../src/domain/advanced-invoices';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatCurrency, parseMoney } from '../../src/domain/money';
import { SatStatus } from '../../src/domain/sat-status';
import { InvoicePage } from '../../src/domain/schemas/invoices';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';
import { pdfTextRuns } from '../support/pdf-text';
import {
  addCompanyWithUser,
  addUserToCompany,
  advanceTo,
  DEMO_PROVIDER,
  getJson,
  importInvoice,
  invoicesIn,
  postJson,
} from '../support/pronto-pago';

const LIST = '/api/providers/advanced-invoices/';
const DOWNLOAD = '/api/providers/advanced-invoices/download/';
const NOT_FOUND = /^Factura no encontrada: \d+\.$/;

describe('advanced invoices (Resumen de tus Facturas Adelantadas)', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let sibling: Session;
  let unlinked: Session;
  const db = () => ctx.database.db;
  const today = () => businessDate(new Date());

  const stored = (id: number) =>
    db()
      .selectFrom('invoices')
      .select(['id', 'cfdi_uuid', 'serie', 'folio', 'status', 'cfdi_xml'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();

  async function download(ids: unknown, session: Session | null = provider) {
    return postJson(ctx.app, DOWNLOAD, session, { invoice_ids: ids });
  }

  /** A fresh invoice of the demo provider taken through the real advance call (APPROVED → PROCESS). */
  async function advancedInvoice(overrides: Parameters<typeof importInvoice>[1] = {}): Promise<number> {
    const id = await importInvoice(db(), overrides);
    await advanceTo(db(), id, 'approved', dayjs(today()).add(45, 'day').format('YYYY-MM-DD'));
    const res = await postJson(ctx.app, '/api/providers/forward-payment/', provider, {
      id_execute_factoring: id,
    });
    expect(res.statusCode, res.body).toBe(200);
    return id;
  }

  beforeAll(async () => {
    ctx = await createApiApp();
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    // A user of another demo provider: same customer, different company.
    await addUserToCompany(db(), {
      rfc: DEMO_PROVIDERS[1].rfc,
      username: 'transportes.demo',
      firstName: 'Tomás',
      lastName: 'Sierra',
    });
    sibling = await sessionFor(ctx.app, 'transportes.demo');
    await addCompanyWithUser(db(), {
      rfc: 'PFL200115K34',
      name: 'Proveedora Flores y Limón',
      username: 'sin.vinculo',
      satStatus: SatStatus.SENT,
    });
    unlinked = await sessionFor(ctx.app, 'sin.vinculo');
  });
  afterAll(() => ctx.close());

  describe('GET /api/providers/advanced-invoices/', () => {
    it('lists only the caller’s PROCESS and PAID invoices, in the alliances list’s shape', async () => {
      const res = await getJson(ctx.app, `${LIST}?page_size=100`, provider);
      expect(res.statusCode, res.body).toBe(200);
      const page = res.json<InvoicePage>();
      expect(is(page, InvoicePage)).toBe(true);
      const expected = [
        ...(await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PROCESS)),
        ...(await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PAID)),
      ];
      expect(expected.length).toBeGreaterThanOrEqual(4);
      expect(page.results.map((row) => row.id).sort((a, b) => a - b)).toEqual(expected.sort((a, b) => a - b));
      expect(page.results.every((row) => row.emitter_rfc === DEMO_PROVIDER.rfc)).toBe(true);
      const keys = page.results.map((row) => `${row.date_of_emission}#${String(row.id).padStart(8, '0')}`);
      expect(keys).toEqual([...keys].sort().reverse());
      expect(page.indicators).toMatchObject({ count: expected.length, suppliers_customers: 1 });
      expect(page.has_factoring).toBe(false);
    });

    it('narrows by status within the advanced ones; any other status matches nothing', async () => {
      const process = (await getJson(ctx.app, `${LIST}?status=50`, provider)).json<InvoicePage>();
      expect(process.count).toBeGreaterThan(0);
      expect(process.results.every((row) => row.status === InvoiceStatus.PROCESS)).toBe(true);
      const paid = (await getJson(ctx.app, `${LIST}?status=10`, provider)).json<InvoicePage>();
      expect(paid.results.every((row) => row.status === InvoiceStatus.PAID)).toBe(true);
      for (const status of [60, 40, 30, 90, 70, 20]) {
        const other = (await getJson(ctx.app, `${LIST}?status=${status}`, provider)).json<InvoicePage>();
        expect(other.count, `status ${status}`).toBe(0);
      }
    });

    it('searches and pages like the alliances list; bad filters are 400 with Spanish messages', async () => {
      const all = (await getJson(ctx.app, `${LIST}?page_size=100`, provider)).json<InvoicePage>();
      const first = all.results[0]!;
      const found = (
        await getJson(ctx.app, `${LIST}?search=${first.fiscal_folio.slice(0, 13)}`, provider)
      ).json<InvoicePage>();
      expect(found.results.map((row) => row.id)).toEqual([first.id]);
      const onePerPage = (await getJson(ctx.app, `${LIST}?page_size=1&page=2`, provider)).json<InvoicePage>();
      expect(onePerPage.results).toHaveLength(1);
      expect(onePerPage.previous).toBe(
        'http://localhost/api/providers/advanced-invoices/?page_size=1&page=1',
      );
      expect(onePerPage.indicators).toBeUndefined();
      const bad = await getJson(ctx.app, `${LIST}?status=x&page_size=500`, provider);
      expect(bad.statusCode).toBe(400);
      expect(bad.json()).toEqual({ status: ['Valor no válido'], page_size: ['Valor no válido'] });
    });

    it('shows another provider only its own advanced invoices', async () => {
      const page = (await getJson(ctx.app, `${LIST}?page_size=100`, sibling)).json<InvoicePage>();
      expect(page.count).toBeGreaterThan(0);
      expect(page.results.every((row) => row.emitter_rfc === DEMO_PROVIDERS[1].rfc)).toBe(true);
    });

    it('needs a session (401) and an authorized SAT link (403)', async () => {
      expect((await getJson(ctx.app, LIST, null)).statusCode).toBe(401);
      const res = await getJson(ctx.app, LIST, unlinked);
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toBe(
        'Tu vinculación con el SAT no está autorizada. Vincula tu cuenta para continuar.',
      );
    });
  });

  describe('POST /api/providers/advanced-invoices/download/', () => {
    it('answers one ZIP with each invoice’s stored CFDI byte for byte and its PDF summary', async () => {
      const ids = [
        ...(await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PROCESS)),
        ...(await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PAID)),
      ];
      const res = await download(ids);
      expect(res.statusCode, res.body).toBe(200);
      expect(res.headers['content-type']).toBe('application/zip');
      expect(res.headers['content-disposition']).toBe(
        `attachment; filename="facturas-adelantadas-${today()}.zip"`,
      );
      expect(res.headers['cache-control']).toBe('no-store');
      expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
      const files = unzipSync(new Uint8Array(res.rawPayload));
      expect(Object.keys(files)).toHaveLength(ids.length * 2);
      for (const id of ids) {
        const invoice = await stored(id);
        const name = invoiceLabel(invoice);
        expect(files[`${name}.xml`], name).toEqual(new TextEncoder().encode(invoice.cfdi_xml));
        const pdf = files[`${name}.pdf`]!;
        expect(Buffer.from(pdf.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
        const text = pdfTextRuns(pdf).join('\n');
        expect(text).toContain('Flujo');
        expect(text).toContain(`Factura ${name}`);
        expect(text).toContain(invoice.cfdi_uuid);
        expect(text).toContain(
          invoice.status === InvoiceStatus.PAID ? 'Estado: Pagada' : 'Estado: En trámite',
        );
        expect(text).toContain(DEMO_PROVIDER.rfc);
        expect(text).toContain('Grupo Altamira Alimentos, S.A. de C.V.');
      }
    });

    it('renders the advance’s figures, DD/MM/YYYY dates and the disbursement in the PDF', async () => {
      const id = await advancedInvoice({ description: 'Suministro de cajas de cartón' });
      await disburseInvoice(db(), String(id), {
        account: 'pruebas',
        authenticity: testAuthenticity(db()),
        today: today(),
        reference: 'REF-PRUEBA-77',
        force: true,
      });
      const invoice = await db()
        .selectFrom('invoices')
        .select(['serie', 'folio', 'cfdi_uuid', 'date_of_emission', 'payment_date', 'cost_financing'])
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      const res = await download([id]);
      expect(res.statusCode, res.body).toBe(200);
      const name = invoiceLabel(invoice);
      const text = pdfTextRuns(unzipSync(new Uint8Array(res.rawPayload))[`${name}.pdf`]!);
      const row = (label: string) => text[text.indexOf(label) + 1];
      expect(text).toContain('Estado: Pagada');
      expect(row('Fecha de emisión')).toBe(dayjs(invoice.date_of_emission).format('DD/MM/YYYY'));
      expect(row('Fecha de pago')).toBe(dayjs(invoice.payment_date).format('DD/MM/YYYY'));
      // 86,206.90 + 16% IVA = 100,000.00 (test/support/pronto-pago.ts).
      expect(row('Total')).toBe('$100,000.00 MXN');
      expect(row('Subtotal')).toBe('$86,206.90 MXN');
      expect(row('Tasa anual (tasa + IVA)')).toBe('15.00 %');
      expect(row('Costo financiero')).toBe(
        `${formatCurrency(parseMoney(invoice.cost_financing!), 'MXN')} MXN`,
      );
      expect(row('Referencia del pago')).toBe('REF-PRUEBA-77');
      expect(row('Pagado el')).toBe(dayjs(today()).format('DD/MM/YYYY'));
      expect(text.join(' ')).toContain('Concepto: Suministro de cajas de cartón');
    });

    it('draws names outside WinAnsi without failing and keeps Spanish accents', async () => {
      const id = await advancedInvoice({ description: 'Análisis ΩmegaΣ – niño “ő” 😀\ten dos\nlíneas' });
      const res = await download([id]);
      expect(res.statusCode, res.body).toBe(200);
      const invoice = await stored(id);
      const files = unzipSync(new Uint8Array(res.rawPayload));
      const text = pdfTextRuns(files[`${invoiceLabel(invoice)}.pdf`]!).join(' ');
      expect(text).toContain('Análisis ?mega? – niño “o” ? en dos líneas');
      // The XML keeps every character as imported.
      expect(new TextDecoder().decode(files[`${invoiceLabel(invoice)}.xml`])).toBe(invoice.cfdi_xml);
    });

    it('counts a repeated id once', async () => {
      const [id] = await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PAID);
      const res = await download([id, id]);
      expect(res.statusCode, res.body).toBe(200);
      expect(Object.keys(unzipSync(new Uint8Array(res.rawPayload)))).toHaveLength(2);
    });

    it.each([
      ['no body field', {}, 'Este campo es obligatorio'],
      ['null', { invoice_ids: null }, 'Este campo es obligatorio'],
      ['not a list', { invoice_ids: 12 }, DOWNLOAD_MESSAGES.notAList],
      ['an empty list', { invoice_ids: [] }, DOWNLOAD_MESSAGES.empty],
      ['text ids', { invoice_ids: ['12'] }, DOWNLOAD_MESSAGES.badId],
      ['fractional ids', { invoice_ids: [1.5] }, DOWNLOAD_MESSAGES.badId],
      ['zero', { invoice_ids: [0] }, DOWNLOAD_MESSAGES.badId],
      [
        `more than ${MAX_DOWNLOAD_INVOICES} ids`,
        { invoice_ids: Array.from({ length: MAX_DOWNLOAD_INVOICES + 1 }, (_, i) => i + 1) },
        DOWNLOAD_MESSAGES.tooMany,
      ],
    ])('refuses %s with a 400 and a Spanish message', async (_, body, message) => {
      const res = await postJson(ctx.app, DOWNLOAD, provider, body);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json()).toEqual({ invoice_ids: [message] });
    });

    it('refuses a body that is not an object', async () => {
      const res = await postJson(ctx.app, DOWNLOAD, provider, [1, 2]);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ invoice_ids: ['Este campo es obligatorio'] });
      expect(DOWNLOAD_MESSAGES.tooMany).toBe('Puedes descargar como máximo 100 facturas a la vez.');
    });

    it('answers 404 for another provider’s advanced invoice, alone or among the caller’s own: never a partial ZIP', async () => {
      const [theirs] = await invoicesIn(db(), DEMO_PROVIDERS[1].rfc, InvoiceStatus.PAID);
      const [mine] = await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PAID);
      for (const ids of [[theirs], [mine, theirs], [mine, 2_000_000_000], [mine, 99_999_999_999]]) {
        const res = await download(ids);
        expect(res.statusCode, `${ids}: ${res.body}`).toBe(404);
        expect(res.headers['content-type']).toMatch(/^application\/json/);
        expect(res.json().detail).toMatch(NOT_FOUND);
        expect(res.json()).toMatchObject({ message: res.json().detail, message_type: 'error' });
      }
      // The other provider downloads its own.
      expect((await download([theirs], sibling)).statusCode).toBe(200);
    });

    it('refuses the caller’s own invoices that are not advanced with a 409 naming the status', async () => {
      const [mine] = await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PAID);
      for (const status of [60, 40, 30, 90, 70, 20] as const) {
        const [other] = await invoicesIn(db(), DEMO_PROVIDER.rfc, status);
        const res = await download([mine, other]);
        expect(res.statusCode, `status ${status}: ${res.body}`).toBe(409);
        const invoice = await stored(other!);
        expect(res.json().detail).toMatch(
          new RegExp(`^La factura ${invoiceLabel(invoice)} no está adelantada \\(su estado es «[^»]+»\\)`),
        );
      }
    });

    it('needs a session (401), an authorized SAT link (403) and answers nothing else', async () => {
      const [mine] = await invoicesIn(db(), DEMO_PROVIDER.rfc, InvoiceStatus.PAID);
      const anonymous = await download([mine], null);
      expect(anonymous.statusCode).toBe(401);
      expect(anonymous.headers['content-type']).toMatch(/^application\/json/);
      const res = await download([mine], unlinked);
      expect(res.statusCode).toBe(403);
    });
  });
});
