import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { OPS_COMMANDS, type OpsOutput, runOpsCommand } from '../../server/ops/commands';
import { FACTORING_ALREADY_ENABLED, FACTORING_NOT_ENABLED } from '../../src/domain/factoring-messages';
import type { FactoringQuote, FactoringRecord } from '../../src/domain/schemas/factoring';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp, testConfig } from '../support/api-app';
import { DEMO_PROVIDER, getJson, importInvoice, postJson } from '../support/pronto-pago';

describe('operator commands: factoring:enable, factoring:requests, factoring:settle', () => {
  let ctx: ApiTestContext;
  let provider: Session;
  let out: string[];
  let err: string[];
  const NOW = new Date('2026-03-10T18:00:00Z');
  const db = () => ctx.database.db;
  const config = testConfig();
  const output: OpsOutput = { out: (line) => out.push(line), err: (line) => err.push(line) };

  /** Runs a command as the CLI and the ops socket do: through runOpsCommand, refusals explained. */
  function ops(name: string, ...args: string[]): Promise<number> {
    const command = OPS_COMMANDS[name];
    if (!command) throw new Error(`no command ${name}`);
    out = [];
    err = [];
    return runOpsCommand(command, args, { config, database: ctx.database, output, now: () => NOW });
  }

  const creditUsed = async () =>
    (
      await db()
        .selectFrom('companies')
        .select(['credit_used', 'credit_line', 'has_factoring', 'factoring_rate'])
        .where('rfc', '=', DEMO_PROVIDER.rfc)
        .executeTakeFirstOrThrow()
    ).credit_used;

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
  }, 120_000);
  afterAll(() => ctx.close());

  /** Transfers a fresh 100,000.00 MXN invoice in `installments` payments; returns the record id. */
  async function transfer(installments: number): Promise<number> {
    const id = await importInvoice(db(), { today: businessDate(NOW) });
    const quote = (
      await getJson(ctx.app, `/api/factoring-calculations/${id}/`, provider)
    ).json<FactoringQuote>();
    const option = quote.options.find((item) => item.installments === installments);
    const res = await postJson(
      ctx.app,
      '/api/factoring/',
      provider,
      {
        invoice_id: id,
        rate: quote.rate,
        installments,
        factoringConsultingFee: quote.advisory_fee,
        installmentPayment: option?.installment_payment,
        totalPayment: option?.total_payment,
        invoiceFolio: quote.fiscal_folio,
      },
      `ops-transfer-${id}`,
    );
    expect(res.statusCode, res.body).toBe(200);
    return res.json<{ factoring_request_id: number }>().factoring_request_id;
  }

  it('an enable request, then factoring:requests lists it and factoring:enable grants the line', async () => {
    const asked = await postJson(ctx.app, '/api/factoring-enable/', provider, undefined);
    expect(asked.json()).toEqual({ message: FACTORING_NOT_ENABLED, message_type: 'info' });
    const id = await importInvoice(db(), { today: businessDate(NOW) });
    expect((await getJson(ctx.app, `/api/factoring-calculations/${id}/`, provider)).statusCode).toBe(403);

    expect(await ops('factoring:requests')).toBe(0);
    expect(out).toEqual([
      expect.stringMatching(
        /^#\d+ {2}\S+ {2}EBA120815RTA {2}Empaques del Bajío.* {2}proveedor\.demo {2}\[requested\]$/,
      ),
    ]);

    expect(await ops('factoring:enable', DEMO_PROVIDER.rfc.toLowerCase(), '--line', '500000')).toBe(0);
    expect(out).toEqual([
      'Factoraje habilitado para EBA120815RTA (Empaques del Bajío, S.A. de C.V.): línea 500000.00 MXN, tasa anual 18.5000 %; 1 solicitudes de alta atendidas.',
    ]);
    const company = await db()
      .selectFrom('companies')
      .selectAll()
      .where('rfc', '=', DEMO_PROVIDER.rfc)
      .executeTakeFirstOrThrow();
    expect(company).toMatchObject({
      has_factoring: true,
      credit_line: '500000.00',
      factoring_rate: '18.5000',
    });

    // The request stays listed, now enabled; the calls work and a further click says the line is there.
    expect(await ops('factoring:requests', '--limit', '5')).toBe(0);
    expect(out[0]).toMatch(/\[enabled\]$/);
    const quote = await getJson(ctx.app, `/api/factoring-calculations/${id}/`, provider);
    expect(quote.statusCode).toBe(200);
    expect(quote.json<FactoringQuote>().rate).toBe(18.5);
    const again = await postJson(ctx.app, '/api/factoring-enable/', provider, undefined);
    expect(again.json()).toEqual({ message: FACTORING_ALREADY_ENABLED, message_type: 'info' });

    expect(await ops('factoring:enable', DEMO_PROVIDER.rfc, '--line', '500000', '--rate', '21.25')).toBe(0);
    const requoted = await getJson(ctx.app, `/api/factoring-calculations/${id}/`, provider);
    expect(requoted.json<FactoringQuote>().rate).toBe(21.25);
    expect(await ops('factoring:enable', DEMO_PROVIDER.rfc, '--line', '500000', '--rate', '18.5')).toBe(0);
  });

  it('refuses bad arguments with a usage error (exit 2) and unknown companies (exit 1)', async () => {
    expect(await ops('factoring:enable', DEMO_PROVIDER.rfc)).toBe(2);
    expect(err[0]).toContain('--line');
    expect(await ops('factoring:enable', 'NO-ES-RFC', '--line', '1000')).toBe(2);
    expect(await ops('factoring:enable', DEMO_PROVIDER.rfc, '--line', 'mucho')).toBe(1);
    expect(err[0]).toContain('--line debe ser un monto');
    expect(await ops('factoring:enable', DEMO_PROVIDER.rfc, '--line', '1000', '--rate', '250')).toBe(1);
    expect(await ops('factoring:enable', 'XAXX010101000', '--line', '1000')).toBe(1);
    expect(err[0]).toBe('No hay ninguna empresa con el RFC XAXX010101000.');
    expect(await ops('factoring:settle', 'abc')).toBe(2);
    expect(await ops('factoring:settle', '99999')).toBe(1);
    expect(err[0]).toBe('No existe la solicitud de factoraje 99999.');
    expect(await ops('factoring:requests', 'extra')).toBe(2);
  });

  it('settles instalments in order or by number, frees each release, refuses a second payment', async () => {
    const before = Number(await creditUsed());
    const recordId = await transfer(3);
    expect(Number(await creditUsed())).toBeCloseTo(before + 100_000, 2);

    expect(await ops('factoring:settle', String(recordId))).toBe(0);
    expect(out).toEqual([
      `Pago 1 de la solicitud de factoraje ${recordId} registrado: 34875.00 MXN; se liberaron 33333.33 MXN de la línea.`,
    ]);
    expect(Number(await creditUsed())).toBeCloseTo(before + 66_666.67, 2);

    expect(await ops('factoring:settle', String(recordId), '--instalment', '3')).toBe(0);
    expect(Number(await creditUsed())).toBeCloseTo(before + 33_333.33, 2);
    expect(await ops('factoring:settle', String(recordId), '--instalment', '3')).toBe(1);
    expect(err[0]).toMatch(new RegExp(`^El pago 3 de la solicitud de factoraje ${recordId} ya se registró`));
    expect(await ops('factoring:settle', String(recordId), '--instalment', '4')).toBe(1);
    expect(err[0]).toContain('no tiene el pago 4');
    expect(Number(await creditUsed())).toBeCloseTo(before + 33_333.33, 2);

    const record = (
      await getJson(ctx.app, `/api/factoring-request/${recordId}/`, provider)
    ).json<FactoringRecord>();
    expect(record.status).toBe('active');
    expect(record.schedule.map((item) => item.paid_at !== null)).toEqual([true, false, true]);

    expect(await ops('factoring:settle', String(recordId))).toBe(0);
    expect(out[0]).toContain('Pago 2');
    expect(out[0]).toContain('La solicitud quedó liquidada.');
    const settled = (
      await getJson(ctx.app, `/api/factoring-request/${recordId}/`, provider)
    ).json<FactoringRecord>();
    expect(settled.status).toBe('settled');
    expect(settled.schedule.every((item) => item.paid_at !== null)).toBe(true);
    // Every instalment settled frees exactly what the transfer held.
    expect(await creditUsed()).toBe(before.toFixed(2));
    expect(await ops('factoring:settle', String(recordId))).toBe(1);
    expect(err[0]).toContain('ya está liquidada');
  });

  it('every schedule length frees exactly the line amount once all is paid', async () => {
    const before = await creditUsed();
    const records = [await transfer(1), await transfer(2), await transfer(4)];
    for (const recordId of records) {
      const { schedule } = (
        await getJson(ctx.app, `/api/factoring-request/${recordId}/`, provider)
      ).json<FactoringRecord>();
      for (const _ of schedule) expect(await ops('factoring:settle', String(recordId))).toBe(0);
    }
    expect(await creditUsed()).toBe(before);
  });

  it('is in the command table the CLI and the ops socket share', () => {
    for (const name of ['factoring:enable', 'factoring:requests', 'factoring:settle']) {
      expect(OPS_COMMANDS[name]?.needsDatabase([])).toBe(true);
    }
  });
});
