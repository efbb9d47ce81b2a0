// @postgresql: overlapping bank files uploaded at once must apply each clave de rastreo once, which needs concurrent connections and the claves' and buyers' locks to race.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import {
  BANK_STATEMENT_MESSAGES,
  type BankStatementFileLine,
  bankStatementCsv,
} from '../../src/domain/bank-statement';
import { collectionReference } from '../../src/domain/maturities';
import { parseMoney } from '../../src/domain/money';
import type { BankStatementResult } from '../../src/domain/schemas/bank-statement';
import { UNIDENTIFIED_REFUSALS } from '../../src/machines/unidentified-payment.machine';
import { bearer, type Session } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity } from '../support/demo-authority';
import { createOperatorSession } from '../support/operator';
import {
  addCompanyWithUser,
  advanceTo,
  DEMO_PROVIDER,
  getJson,
  importInvoice,
  postJson,
  requestAdvance,
} from '../support/pronto-pago';

// Issue 34, decision 0067: the bank's statement of incoming SPEI reconciled against what a buyer owes — by the
// batch's reference, then by the ordering RFC and an invoice owing exactly the amount; exact, partial, over-paid
// (saldo a favor) and unidentified (a queue with maker-checker above the threshold); each clave applied once,
// the whole file in one transaction. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL's connections.

const STATEMENT = '/api/operator/collections/bank-statement/';
const QUEUE = '/api/operator/collections/unidentified/';
const CREDITS = '/api/operator/collections/credits/';
const COLLECTIONS = '/api/operator/collections/';
// 8,620.69 + 16 % IVA = 10,000.00 MXN per invoice.
const SUBTOTAL = '8620.69';
const RFC = 'CBS150312AB2';
const NAME = 'Corporativo Banco y Cobranza, S.A. de C.V.';

describe("collections reconciled from the bank's statement", () => {
  let ctx: ApiTestContext;
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = () => businessDate(NOW);
  const db = () => ctx.database.db;
  let tesoreria: Session & { userId: number };
  let proposer: Session & { userId: number };
  let aprobador: Session & { userId: number };
  let analista: Session & { userId: number };
  let corporateId: number;
  const invoices: Record<'A' | 'B' | 'C' | 'D' | 'E' | 'F' | 'G', number> = {
    A: 0,
    B: 0,
    C: 0,
    D: 0,
    E: 0,
    F: 0,
    G: 0,
  };
  let batch1 = 0;
  let batch2 = 0;

  function upload(csv: string, session: Session, key?: string) {
    const boundary = 'limiteestado';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="estado.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    return ctx.app.inject({
      method: 'POST',
      url: STATEMENT,
      payload,
      headers: {
        ...bearer(session),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(key ? { 'idempotency-key': key } : {}),
      },
    });
  }

  /** An advance of the test corporate disbursed and falling due on `dueOn`. */
  async function disbursed(dueOn: string): Promise<number> {
    const id = await importInvoice(db(), {
      today: today(),
      receiver: { rfc: RFC, name: NAME },
      subtotal: SUBTOTAL,
    });
    await advanceTo(db(), id, 'approved', dueOn);
    await requestAdvance(db(), id);
    await disburseInvoice(db(), String(id), {
      account: 'pruebas',
      authenticity: testAuthenticity(db()),
      today: today(),
      force: true,
    });
    await db().updateTable('disbursements').set({ due_on: dueOn }).where('invoice_id', '=', id).execute();
    return id;
  }

  async function outstanding(id: number): Promise<number> {
    const { rows } = await sql<{ left: string }>`select (i.amount_with_exchange_rate -
      coalesce((select sum(amount) from collections where invoice_id = i.id), 0))::text as left
      from invoices i where i.id = ${id}`.execute(db());
    return parseMoney(rows[0]?.left ?? '0');
  }

  /** What the corporate's programme uses, and the sum of its ledger's releases. */
  async function programme() {
    const row = await db()
      .selectFrom('credit_programmes')
      .select(['id', 'used'])
      .where('corporate_id', '=', corporateId)
      .executeTakeFirstOrThrow();
    const { rows } = await sql<{ total: string }>`select coalesce(sum(amount), 0)::text as total
      from programme_ledger where programme_id = ${row.id} and kind = 'release'`.execute(db());
    return { used: parseMoney(row.used), released: parseMoney(rows[0]?.total ?? '0') };
  }

  /** Everything the file may write, counted: a second upload must leave every count as it was. */
  async function footprint() {
    const count = async (
      table: 'bank_payments' | 'collections' | 'buyer_credits' | 'unidentified_payments',
    ) =>
      Number(
        (
          await db()
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<string>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return {
      bankPayments: await count('bank_payments'),
      collections: await count('collections'),
      credits: await count('buyer_credits'),
      queue: await count('unidentified_payments'),
      ledger: (await programme()).released,
    };
  }

  async function balance(): Promise<string | undefined> {
    const list = (await getJson(ctx.app, CREDITS, tesoreria)).json() as {
      results: { corporate_id: number; balance: string }[];
    };
    return list.results.find((entry) => entry.corporate_id === corporateId)?.balance;
  }

  const line = (
    overrides: Partial<BankStatementFileLine> & Pick<BankStatementFileLine, 'claveRastreo' | 'amount'>,
  ) => ({
    fecha: '2026-03-09',
    rfcOrdenante: null,
    nombreOrdenante: 'ORDENANTE',
    referencia: '',
    concepto: 'PAGO',
    ...overrides,
  });

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    tesoreria = await createOperatorSession(ctx, { roles: ['tesoreria'], username: 'op.tesoreria.banco' });
    proposer = await createOperatorSession(ctx, {
      roles: ['tesoreria', 'aprobador'],
      username: 'op.propone',
    });
    aprobador = await createOperatorSession(ctx, { roles: ['aprobador'], username: 'op.aprueba' });
    analista = await createOperatorSession(ctx, { roles: ['analista'], username: 'op.analista.banco' });
    const created = await addCompanyWithUser(db(), {
      rfc: RFC,
      name: NAME,
      username: 'corporativo.banco',
      isCorporate: true,
    });
    corporateId = created.companyId;
    await db()
      .updateTable('credit_programmes')
      .set({ limit_amount: '1000000.00', state: 'activo' })
      .where('corporate_id', '=', corporateId)
      .execute();
    const provider = await db()
      .selectFrom('companies')
      .select('id')
      .where('rfc', '=', DEMO_PROVIDER.rfc)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('alliances')
      .values({ corporate_id: corporateId, provider_id: provider.id, max_rate: '18.0000' })
      .execute();
    invoices.A = await disbursed('2026-03-02');
    invoices.B = await disbursed('2026-03-02');
    invoices.C = await disbursed('2026-03-09');
    invoices.D = await disbursed('2026-03-16');
    invoices.E = await disbursed('2026-03-16');
    invoices.F = await disbursed('2026-03-20');
    invoices.G = await disbursed('2026-03-23');
    batch1 = (
      await db()
        .insertInto('maturity_batches')
        .values({ corporate_id: corporateId, due_on: '2026-03-02' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    batch2 = (
      await db()
        .insertInto('maturity_batches')
        .values({ corporate_id: corporateId, due_on: '2026-03-09' })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => ctx.close());

  const firstFile = () =>
    bankStatementCsv([
      line({ claveRastreo: 'EXACTO0001', amount: 20_000_00, referencia: collectionReference(batch1) }),
      line({ claveRastreo: 'PARCIAL0001', amount: 4_000_00, referencia: collectionReference(batch2) }),
      line({ claveRastreo: 'SOBRE0001', amount: 7_000_00, referencia: collectionReference(batch2) }),
      line({ claveRastreo: 'RFC0001', amount: 10_000_00, rfcOrdenante: RFC }),
      line({ claveRastreo: 'NOIDENT0001', amount: 60_000_00, rfcOrdenante: 'XAXX010101000' }),
      line({ claveRastreo: 'NOIDENT0002', amount: 3_000_00, rfcOrdenante: RFC }),
    ]);

  it('refuses a bad file with every line error and writes nothing', async () => {
    const before = await footprint();
    const bad = `${bankStatementCsv([line({ claveRastreo: 'BUENA0001', amount: 10_000_00, rfcOrdenante: RFC })])}2026-02-30,MAL 1,-5,XYZ,,,\r\n2026-03-09,BUENA0001,1.00,,,,\r\n`;
    const refused = await upload(bad, tesoreria);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().errors).toEqual([
      `Línea 3: ${BANK_STATEMENT_MESSAGES.fecha}; ${BANK_STATEMENT_MESSAGES.clave}; ${BANK_STATEMENT_MESSAGES.monto}; ${BANK_STATEMENT_MESSAGES.rfc}.`,
      `Línea 4: ${BANK_STATEMENT_MESSAGES.repeatedInFile('BUENA0001', 2)}.`,
    ]);
    expect(await footprint()).toEqual(before);
    expect((await upload('fecha,monto\r\n', tesoreria)).json().errors).toEqual([
      BANK_STATEMENT_MESSAGES.header,
    ]);
    expect((await upload(firstFile(), analista)).statusCode).toBe(403);
    expect(await footprint()).toEqual(before);
  });

  it('applies exact, partial, over-paid and unidentified lines, and the same file again changes nothing', async () => {
    const before = await programme();
    const first = await upload(firstFile(), tesoreria, 'estado-1');
    expect(first.statusCode).toBe(200);
    const result = first.json() as BankStatementResult;
    expect(result.counts).toEqual({
      exactas: 2,
      parciales: 1,
      sobrepagos: 1,
      no_identificadas: 2,
      repetidas: 0,
    });
    expect(result.lines.map((entry) => [entry.clave_rastreo, entry.kind, entry.invoice_ids])).toEqual([
      ['EXACTO0001', 'exacta', [invoices.A, invoices.B]],
      ['PARCIAL0001', 'parcial', [invoices.C]],
      ['SOBRE0001', 'sobrepago', [invoices.C]],
      ['RFC0001', 'exacta', [invoices.D]],
      ['NOIDENT0001', 'no_identificada', []],
      ['NOIDENT0002', 'no_identificada', []],
    ]);
    expect(result.lines[2]?.saldo_a_favor).toBe('1000.00');
    expect(result.lines[2]?.message).toBe(
      'Facturas liquidadas; el excedente de $1,000.00 MXN queda como saldo a favor del corporativo.',
    );
    // A and B, C (4,000 + 6,000) and D are collected; E (same amount, due as D, later id) is not.
    for (const id of [invoices.A, invoices.B, invoices.C, invoices.D]) expect(await outstanding(id)).toBe(0);
    expect(await outstanding(invoices.E)).toBe(10_000_00);
    // The programme released exactly what was collected: 40,000.00.
    const after = await programme();
    expect(before.used - after.used).toBe(40_000_00);
    expect(after.released - before.released).toBe(40_000_00);
    expect(await balance()).toBe('1000.00');
    const queue = (await getJson(ctx.app, QUEUE, tesoreria)).json() as {
      results: { clave_rastreo: string; state: string; needs_approval: boolean }[];
    };
    expect(queue.results.map((entry) => [entry.clave_rastreo, entry.state, entry.needs_approval])).toEqual([
      ['NOIDENT0001', 'pendiente', true],
      ['NOIDENT0002', 'pendiente', false],
    ]);

    const before2 = await footprint();
    const again = await upload(firstFile(), tesoreria);
    expect(again.statusCode).toBe(200);
    expect(again.json().counts).toEqual({
      exactas: 0,
      parciales: 0,
      sobrepagos: 0,
      no_identificadas: 0,
      repetidas: 6,
    });
    expect(again.json().message).toBe(
      'Todas las claves de rastreo (6) ya se habían aplicado: el archivo no cambió nada.',
    );
    expect(await footprint()).toEqual(before2);
    // 'Registrar cobro' with a clave the bank's file already applied is refused: one payment, one clave.
    const manual = await postJson(ctx.app, COLLECTIONS, tesoreria, {
      invoice_id: invoices.E,
      amount: '100.00',
      clave_rastreo: 'NOIDENT0001',
      fecha: today(),
    });
    expect(manual.statusCode).toBe(409);
    expect(await footprint()).toEqual(before2);
  });

  it('applies each clave once when overlapping files are uploaded at once', async () => {
    const before = await footprint();
    const x = bankStatementCsv([
      line({ claveRastreo: 'CONC0001', amount: 10_000_00, rfcOrdenante: RFC }),
      line({ claveRastreo: 'CONC0002', amount: 500_00 }),
    ]);
    const y = bankStatementCsv([
      line({ claveRastreo: 'CONC0002', amount: 500_00 }),
      line({ claveRastreo: 'CONC0001', amount: 10_000_00, rfcOrdenante: RFC }),
      line({ claveRastreo: 'CONC0003', amount: 700_00 }),
    ]);
    const answers = await Promise.all([upload(x, tesoreria), upload(y, proposer), upload(x, aprobador)]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200, 200]);
    const counts = answers.map((answer) => (answer.json() as BankStatementResult).counts);
    const sum = (key: keyof BankStatementResult['counts']) =>
      counts.reduce((total, each) => total + each[key], 0);
    expect(sum('exactas')).toBe(1);
    expect(sum('no_identificadas')).toBe(2);
    expect(sum('repetidas')).toBe(4);
    const after = await footprint();
    expect(after.bankPayments - before.bankPayments).toBe(3);
    expect(after.collections - before.collections).toBe(1);
    expect(after.queue - before.queue).toBe(2);
    expect(after.ledger - before.ledger).toBe(10_000_00);
    expect(await outstanding(invoices.E)).toBe(0);
  });

  it('assigns an unidentified payment: one operator up to the threshold, two different people above it', async () => {
    const queue = (await getJson(ctx.app, QUEUE, tesoreria)).json() as {
      results: { id: number; clave_rastreo: string }[];
    };
    const idOf = (clave: string) => queue.results.find((entry) => entry.clave_rastreo === clave)?.id ?? 0;
    // Up to the threshold: tesorería assigns it and it is applied at once (3,000.00 of G's 10,000.00).
    const small = await postJson(ctx.app, `${QUEUE}${idOf('NOIDENT0002')}/assign/`, tesoreria, {
      invoice_id: invoices.G,
    });
    expect(small.statusCode).toBe(200);
    expect(small.json()).toMatchObject({ state: 'aplicada', invoice_id: invoices.G });
    expect(await outstanding(invoices.G)).toBe(7_000_00);
    const again = await postJson(ctx.app, `${QUEUE}${idOf('NOIDENT0002')}/assign/`, tesoreria, {
      invoice_id: invoices.G,
    });
    expect(again.statusCode).toBe(409);
    expect(await outstanding(invoices.G)).toBe(7_000_00);

    // Above it (60,000.00): proposed, not applied; who proposed cannot approve; another aprobador does.
    const big = idOf('NOIDENT0001');
    const proposed = await postJson(ctx.app, `${QUEUE}${big}/assign/`, proposer, { invoice_id: invoices.F });
    expect(proposed.json()).toMatchObject({ state: 'propuesta', proposed_by_username: 'op.propone' });
    expect(await outstanding(invoices.F)).toBe(10_000_00);
    const own = await postJson(ctx.app, `${QUEUE}${big}/approve/`, proposer, {});
    expect(own.statusCode).toBe(403);
    expect(own.json().detail).toBe(UNIDENTIFIED_REFUSALS.sameOperator);
    expect((await postJson(ctx.app, `${QUEUE}${big}/approve/`, tesoreria, {})).statusCode).toBe(403);
    expect(await outstanding(invoices.F)).toBe(10_000_00);
    const approved = await postJson(ctx.app, `${QUEUE}${big}/approve/`, aprobador, {});
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ state: 'aplicada', decided_by_username: 'op.aprueba' });
    // F takes its 10,000.00; the other 50,000.00 joins the buyer's saldo a favor (1,000.00 before).
    expect(await outstanding(invoices.F)).toBe(0);
    expect(await balance()).toBe('51000.00');
    const pending = (await getJson(ctx.app, QUEUE, tesoreria)).json().results as { clave_rastreo: string }[];
    expect(pending.map((entry) => entry.clave_rastreo)).toEqual(['CONC0002', 'CONC0003']);
    // A rejected proposal goes back to pendiente with the reason.
    const conc = pending.length > 0 ? (await getJson(ctx.app, QUEUE, tesoreria)).json().results[1].id : 0;
    const rejectedWithout = await postJson(ctx.app, `${QUEUE}${conc}/reject/`, aprobador, { reason: 'x' });
    expect(rejectedWithout.statusCode).toBe(409);
  });

  it("applies the buyer's saldo a favor to an outstanding invoice, never above the balance or what it owes", async () => {
    const before = await programme();
    const tooMuch = await postJson(ctx.app, `${CREDITS}apply/`, tesoreria, {
      invoice_id: invoices.G,
      amount: '8000.00',
    });
    expect(tooMuch.statusCode).toBe(400);
    expect(tooMuch.json()).toEqual({
      amount: ['El monto excede lo que falta por cobrar de la factura ($7,000.00 MXN).'],
    });
    const applied = await postJson(ctx.app, `${CREDITS}apply/`, tesoreria, {
      invoice_id: invoices.G,
      amount: '7000.00',
    });
    expect(applied.statusCode).toBe(200);
    expect(applied.json()).toMatchObject({ applied: '7000.00', balance: '44000.00' });
    expect(await outstanding(invoices.G)).toBe(0);
    expect(await balance()).toBe('44000.00');
    const after = await programme();
    expect(before.used - after.used).toBe(7_000_00);
    const nothing = await postJson(ctx.app, `${CREDITS}apply/`, tesoreria, {
      invoice_id: invoices.G,
      amount: '1.00',
    });
    expect(nothing.statusCode).toBe(409);
  });
});
