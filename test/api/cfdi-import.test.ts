import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importCfdiFiles } from '../../server/modules/sat/cfdi-import.service';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import {
  cfdi33Xml,
  externalEntityXml,
  makeCfdi,
  missingStampXml,
  notXml,
  resealed,
  withAttribute,
  wrongNamespaceXml,
  xmlBomb,
} from '../fixtures/cfdi';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';

const PROVIDER = DEMO_PROVIDERS[1];

function demoCfdi(folio: string, overrides: Parameters<typeof makeCfdi>[0] = {}): string {
  return makeCfdi({
    folio,
    issuedAt: '2026-10-01T09:00:00',
    issuer: { rfc: PROVIDER.rfc, name: PROVIDER.name },
    receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
    ...overrides,
  });
}

describe('CFDI import into invoices', () => {
  let ctx: ApiTestContext;
  beforeAll(async () => {
    ctx = await createApiApp();
  });
  afterAll(() => ctx.close());

  const importOptions = () => ({ authenticity: testAuthenticity(ctx.database.db) });
  const counts = async () => ({
    invoices: (await ctx.database.db.selectFrom('invoices').select('id').execute()).length,
    events: (await ctx.database.db.selectFrom('invoice_events').select('id').execute()).length,
  });

  it('rejects every bad file with a Spanish reason and writes nothing', async () => {
    const before = await counts();
    const result = await importCfdiFiles(
      ctx.database.db,
      [
        { name: 'nota.txt', content: notXml() },
        { name: 'bomba.xml', content: xmlBomb() },
        { name: 'xxe.xml', content: externalEntityXml() },
        { name: 'sin-timbre.xml', content: missingStampXml() },
        { name: 'cfdi33.xml', content: cfdi33Xml() },
        { name: 'otro-ns.xml', content: wrongNamespaceXml() },
        { name: 'emisor-desconocido.xml', content: makeCfdi({ folio: '77' }) },
      ],
      importOptions(),
    );
    expect(result.imported).toEqual([]);
    const reasons = Object.fromEntries(result.rejected.map((r) => [r.name, r.reason]));
    expect(reasons['nota.txt']).toMatch(/no es un XML válido/);
    expect(reasons['bomba.xml']).toMatch(/DOCTYPE|ENTITY/);
    expect(reasons['xxe.xml']).toMatch(/DOCTYPE|ENTITY/);
    expect(reasons['sin-timbre.xml']).toMatch(/no está timbrado/);
    expect(reasons['cfdi33.xml']).toMatch(/3\.3/);
    expect(reasons['otro-ns.xml']).toMatch(/CFDI 4\.0/);
    expect(reasons['emisor-desconocido.xml']).toMatch(/no está registrado en Flujo/);
    expect(await counts()).toEqual(before);
  });

  it('imports a valid CFDI as an AVAILABLE invoice with its audit event, once', async () => {
    const before = await counts();
    const xml = demoCfdi('5001', { currency: 'USD', exchangeRate: '17.5000', subtotal: '1000.00' });
    const first = await importCfdiFiles(
      ctx.database.db,
      [{ name: 'usd.xml', content: xml }],
      importOptions(),
    );
    expect(first.rejected).toEqual([]);
    expect(first.imported).toHaveLength(1);
    const invoice = await ctx.database.db
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', first.imported[0]!.id)
      .executeTakeFirstOrThrow();
    expect(invoice).toMatchObject({
      status: 60,
      currency: 'USD',
      amount: '1160.00',
      exchange_rate: '17.500000',
      amount_with_exchange_rate: '20300.00',
      emitter_rfc: PROVIDER.rfc,
      receiver_rfc: DEMO_CORPORATE.rfc,
      date_of_emission: '2026-10-01',
      folio: '5001',
      cfdi_xml: xml,
    });
    expect(await counts()).toEqual({ invoices: before.invoices + 1, events: before.events + 1 });

    const again = await importCfdiFiles(
      ctx.database.db,
      [{ name: 'usd-otra-vez.xml', content: xml }],
      importOptions(),
    );
    expect(again.imported).toEqual([]);
    expect(again.rejected[0]?.reason).toMatch(/ya fue importada/);
    expect(await counts()).toEqual({ invoices: before.invoices + 1, events: before.events + 1 });
  });

  it('refuses an amount of zero or beyond what Flujo stores, per file, and still imports the rest', async () => {
    const withTotal = (folio: string, total: string, overrides: Parameters<typeof makeCfdi>[0] = {}) =>
      resealed(withAttribute(demoCfdi(folio, overrides), 'Comprobante', 'Total', total));
    const before = await counts();
    const result = await importCfdiFiles(
      ctx.database.db,
      [
        { name: 'enorme.xml', content: withTotal('5101', '99999999999999999.00') },
        { name: 'cero.xml', content: withTotal('5102', '0.00') },
        {
          name: 'tipo-de-cambio.xml',
          content: demoCfdi('5103', { currency: 'USD', exchangeRate: '99999999.5', subtotal: '1000.00' }),
        },
        {
          name: 'pesos-de-mas.xml',
          content: withTotal('5104', '900000000000.00', { currency: 'USD', exchangeRate: '20.00' }),
        },
        {
          name: 'cero-pesos.xml',
          content: demoCfdi('5106', { currency: 'USD', exchangeRate: '0.000001', subtotal: '1.00' }),
        },
        { name: 'buena.xml', content: demoCfdi('5105') },
      ],
      importOptions(),
    );
    const reasons = Object.fromEntries(result.rejected.map((r) => [r.name, r.reason]));
    expect(reasons['enorme.xml']).toBe(
      'El Total 99999999999999999.00 supera el máximo que Flujo admite ($999,999,999,999.99).',
    );
    expect(reasons['cero.xml']).toBe('El Total de la factura debe ser mayor que cero.');
    expect(reasons['tipo-de-cambio.xml']).toBe('El TipoCambio "99999999.5" no es válido');
    expect(reasons['pesos-de-mas.xml']).toMatch(/convertido a pesos con TipoCambio 20\.00 supera el máximo/);
    expect(reasons['cero-pesos.xml']).toBe('El Total convertido a pesos con TipoCambio 0.000001 es cero.');
    expect(result.imported.map((i) => i.name)).toEqual(['buena.xml']);
    expect(await counts()).toEqual({ invoices: before.invoices + 1, events: before.events + 1 });
  });

  it('refuses an invoice whose receiver is not a registered corporate', async () => {
    const xml = demoCfdi('5002', { receiver: { rfc: DEMO_PROVIDERS[2].rfc, name: DEMO_PROVIDERS[2].name } });
    const result = await importCfdiFiles(
      ctx.database.db,
      [{ name: 'a-proveedor.xml', content: xml }],
      importOptions(),
    );
    expect(result.rejected[0]?.reason).toMatch(/no es un corporativo registrado/);
  });
});
