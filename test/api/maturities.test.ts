// @postgresql: a maturity notice is sent once when two processes run the day's notices at the same time (the unique (batch, kind) insert across connections).
import { is } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_COLLECTION_CLABE } from '../../server/config';
import { insertDisbursement } from '../../server/modules/invoices/disbursement.repository';
import { sendMaturityNotices } from '../../server/modules/maturities/maturity-notices';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { collectionReference } from '../../src/domain/maturities';
import {
  CorporateMaturities,
  MATURITY_MESSAGES,
  type MaturitiesReport,
  MaturitiesReport as MaturitiesReportStruct,
} from '../../src/domain/schemas/maturities';
import { type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { createOperatorSession } from '../support/operator';
import { addCompanyWithUser, getJson, importInvoice } from '../support/pronto-pago';

// Maturities (issue 34, decision 0066): GET /api/operator/maturities/, the corporate's next maturities and the
// notices 5 and 1 business days before. Dates are in March 2028, away from the demo world's advances:
//   Saturday 2028-03-04 → due Monday 2028-03-06;
//   Monday 2028-03-20 (third Monday of March, Natalicio de Benito Juárez) → due Tuesday 2028-03-21.

const MATURITIES = '/api/operator/maturities/';
const NOW = new Date('2028-03-01T18:00:00Z');
const BUYER = {
  rfc: 'VEN280301AB1',
  name: 'Vencimientos Compradora SA de CV',
  username: 'compradora.vencimientos',
};

describe('maturities', () => {
  let ctx: ApiTestContext;
  let operator: Session;
  let buyer: Session;
  let demoCorporate: Session;
  let buyerId: number;
  let saturdayId: number;
  let usdId: number;
  let mondayId: number;
  let recorderId: number;
  const db = () => ctx.database.db;

  /** An invoice of the demo provider to `receiverRfc`, disbursed (PAID) with `paymentDate` as committed date. */
  async function disbursed(input: {
    receiver: { rfc: string; name: string };
    paymentDate: string;
    subtotal: string;
    advanced: string;
    usdRate?: string;
  }): Promise<number> {
    const id = await importInvoice(db(), {
      daysAgo: 0,
      subtotal: input.subtotal,
      receiver: input.receiver,
      ...(input.usdRate ? { currency: 'USD' as const, exchangeRate: input.usdRate } : {}),
    });
    await db()
      .updateTable('invoices')
      .set({ status: InvoiceStatus.PAID, payment_date: input.paymentDate })
      .where('id', '=', id)
      .execute();
    await insertDisbursement(db(), { invoiceId: id, amount: input.advanced, reference: `REF-${id}` }, NOW);
    return id;
  }

  async function collect(invoiceId: number, amount: string): Promise<void> {
    await db()
      .insertInto('collections')
      .values({
        invoice_id: invoiceId,
        programme_id: null,
        amount,
        clave_rastreo: `CR-${invoiceId}-${amount}`,
        fecha: '2028-03-01',
        recorded_by: recorderId,
      })
      .execute();
  }

  async function report(query: string, session: Session = operator): Promise<MaturitiesReport> {
    const res = await getJson(ctx.app, `${MATURITIES}?${query}`, session);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<MaturitiesReport>();
    expect(is(body, MaturitiesReportStruct)).toBe(true);
    return body;
  }

  async function amountMxn(id: number): Promise<string> {
    const row = await db()
      .selectFrom('invoices')
      .select('amount_with_exchange_rate')
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    return row.amount_with_exchange_rate;
  }

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    const analista = await createOperatorSession(ctx, { roles: ['analista'] });
    operator = { access: analista.access, refresh: analista.refresh } as Session;
    recorderId = analista.userId;
    const added = await addCompanyWithUser(db(), {
      rfc: BUYER.rfc,
      name: BUYER.name,
      username: BUYER.username,
      isCorporate: true,
    });
    buyerId = added.companyId;
    buyer = await sessionFor(ctx.app, BUYER.username);
    demoCorporate = await sessionFor(ctx.app, 'corporativo.demo');
    const receiver = { rfc: BUYER.rfc, name: BUYER.name };
    saturdayId = await disbursed({
      receiver,
      paymentDate: '2028-03-04',
      subtotal: '10000.00',
      advanced: '9800.00',
    });
    usdId = await disbursed({
      receiver,
      paymentDate: '2028-03-04',
      subtotal: '1000.00',
      advanced: '19000.00',
      usdRate: '17.5000',
    });
    mondayId = await disbursed({
      receiver,
      paymentDate: '2028-03-20',
      subtotal: '5000.00',
      advanced: '4900.00',
    });
    await collect(saturdayId, '3000.00');
    // Collected above its value: outstanding stays at 0, never negative.
    await collect(mondayId, '9000.00');
  });

  afterAll(async () => {
    await ctx?.close();
  });

  it('a payment date on a Saturday falls due on the next Monday, a movable Monday on the Tuesday', async () => {
    const body = await report(`desde=2028-03-01&hasta=2028-03-31&corporate_id=${buyerId}`);
    expect(body.days.map((day) => day.due_on)).toEqual(['2028-03-06', '2028-03-21']);
    const [monday, tuesday] = body.days;
    expect(monday?.buyers.map((group) => group.corporate_name)).toEqual([BUYER.name]);
    expect(monday?.buyers[0]?.invoices.map((invoice) => invoice.invoice_id)).toEqual([saturdayId, usdId]);
    expect(tuesday?.buyers[0]?.invoices.map((invoice) => invoice.invoice_id)).toEqual([mondayId]);
  });

  it('each invoice has what was advanced, collected and is outstanding in pesos, with subtotals', async () => {
    const body = await report(`desde=2028-03-01&hasta=2028-03-31&corporate_id=${buyerId}`);
    const group = body.days[0]?.buyers[0];
    const saturday = group?.invoices.find((invoice) => invoice.invoice_id === saturdayId);
    const saturdayMxn = await amountMxn(saturdayId); // 10,000.00 + IVA
    expect(saturdayMxn).toBe('11600.00');
    expect(saturday).toMatchObject({
      currency: 'MXN',
      exchange_rate: null,
      amount_mxn: '11600.00',
      advanced: '9800.00',
      collected: '3000.00',
      outstanding: '8600.00',
    });
    const usd = group?.invoices.find((invoice) => invoice.invoice_id === usdId);
    // 1,000.00 USD + IVA = 1,160.00 USD at 17.5 = 20,300.00 MXN.
    expect(usd).toMatchObject({
      currency: 'USD',
      amount: '1160.00',
      amount_mxn: '20300.00',
      advanced: '19000.00',
      collected: '0.00',
      outstanding: '20300.00',
    });
    expect(Number(usd?.exchange_rate)).toBe(17.5);
    expect(group).toMatchObject({
      corporate_id: buyerId,
      reference: collectionReference(group?.batch_id ?? 0),
      advanced: '28800.00',
      collected: '3000.00',
      outstanding: '28900.00',
    });
    expect(body.days[0]).toMatchObject({
      advanced: '28800.00',
      collected: '3000.00',
      outstanding: '28900.00',
    });
    const tuesday = body.days[1]?.buyers[0]?.invoices[0];
    expect(tuesday).toMatchObject({ advanced: '4900.00', collected: '9000.00', outstanding: '0.00' });
    expect(body).toMatchObject({ advanced: '33700.00', collected: '12000.00', outstanding: '28900.00' });
  });

  it('one batch per buyer and day: the reference stays the same from call to call', async () => {
    const first = await report(`desde=2028-03-06&hasta=2028-03-06&corporate_id=${buyerId}`);
    const again = await report('desde=2028-03-01&hasta=2028-03-10');
    const mine = again.days[0]?.buyers.find((group) => group.corporate_id === buyerId);
    expect(mine?.reference).toBe(first.days[0]?.buyers[0]?.reference);
    const batches = await db()
      .selectFrom('maturity_batches')
      .select('id')
      .where('corporate_id', '=', buyerId)
      .execute();
    expect(batches).toHaveLength(2);
  });

  it('refuses a bad, missing, reversed or too long range with Spanish messages per field', async () => {
    const cases: Array<[string, Record<string, string[]>]> = [
      ['desde=2028-03-31&hasta=2028-03-01', { hasta: [MATURITY_MESSAGES.rangeBackwards] }],
      ['desde=2028-01-01&hasta=2028-12-31', { hasta: [MATURITY_MESSAGES.rangeTooLong] }],
      ['desde=31/03/2028&hasta=2028-04-01', { desde: [MATURITY_MESSAGES.invalidDate] }],
      ['hasta=2028-04-01', { desde: [MATURITY_MESSAGES.required] }],
      ['desde=2028-03-01&hasta=2028-03-02&corporate_id=x', { corporate_id: [MATURITY_MESSAGES.corporate] }],
    ];
    for (const [query, errors] of cases) {
      const res = await getJson(ctx.app, `${MATURITIES}?${query}`, operator);
      expect(res.statusCode, query).toBe(400);
      expect(res.json(), query).toEqual(errors);
    }
  });

  it('is for operators only', async () => {
    const res = await getJson(ctx.app, `${MATURITIES}?desde=2028-03-01&hasta=2028-03-31`, buyer);
    expect(res.statusCode).toBe(403);
  });

  it("a corporate sees its own next maturities with the reference and Flujo's CLABE, not another's", async () => {
    const res = await getJson(ctx.app, '/api/corporates/maturities/', buyer);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<CorporateMaturities>();
    expect(is(body, CorporateMaturities)).toBe(true);
    // 2028-03-21 is fully collected: only the Monday's batch is outstanding.
    expect(body.results).toEqual([
      {
        due_on: '2028-03-06',
        reference: expect.stringMatching(/^\d{7}$/),
        invoices: 2,
        outstanding: '28900.00',
      },
    ]);
    expect(body.collection_clabe).toBe(DEMO_COLLECTION_CLABE);
    const other = await getJson(ctx.app, '/api/corporates/maturities/', demoCorporate);
    expect(other.statusCode, other.body).toBe(200);
    const references = other.json<CorporateMaturities>().results.map((row) => row.reference);
    expect(references).not.toContain(body.results[0]?.reference);
  });

  describe('notices', () => {
    async function outboxFor(email: string) {
      return db()
        .selectFrom('mail_outbox')
        .select(['subject', 'body_text'])
        .where('recipient', '=', email)
        .orderBy('id')
        .execute();
    }
    const buyerEmail = `${BUYER.username}@example.mx`;

    it('tells the buyer 5 business days before, once, even when two runs race', async () => {
      // Friday 2028-03-10 names 2028-03-17 (5 days) and 2028-03-13 (1 day): nothing of this buyer's.
      await sendMaturityNotices(db(), '2028-03-10');
      expect(await outboxFor(buyerEmail)).toHaveLength(0);
      // 2028-02-28 + 5 business days = 2028-03-06 (the Saturday's batch).
      const [one, two] = await Promise.all([
        sendMaturityNotices(db(), '2028-02-28'),
        sendMaturityNotices(db(), '2028-02-28'),
      ]);
      expect((one?.sent['5d'] ?? 0) + (two?.sent['5d'] ?? 0)).toBeGreaterThanOrEqual(1);
      const mails = await outboxFor(buyerEmail);
      expect(mails).toHaveLength(1);
      const batch = (await report(`desde=2028-03-06&hasta=2028-03-06&corporate_id=${buyerId}`)).days[0]
        ?.buyers[0];
      const reference = batch?.reference ?? '';
      expect(mails[0]?.subject).toBe(
        `Vencimiento en 5 días hábiles (06/03/2028): $28,900.00 MXN, referencia ${reference}`,
      );
      const text = mails[0]?.body_text ?? '';
      expect(text).toContain('- Monto a pagar: $28,900.00 MXN');
      expect(text).toContain(`- CLABE de cobranza de Flujo: ${DEMO_COLLECTION_CLABE}`);
      expect(text).toContain(`- Referencia numérica: ${reference}`);
      expect(text).toContain('pendiente $8,600.00 MXN');
      expect(text).toContain('(factura de $1,160.00 USD; valor $20,300.00 MXN al tipo de cambio 17.5');
      // The same day again: nothing new.
      const third = await sendMaturityNotices(db(), '2028-02-28');
      expect(third.sent['5d']).toBe(0);
      expect(await outboxFor(buyerEmail)).toHaveLength(1);
    });

    it('tells the buyer 1 business day before, once', async () => {
      // Friday 2028-03-03 + 1 business day = Monday 2028-03-06.
      const first = await sendMaturityNotices(db(), '2028-03-03', { collectionClabe: '002010077777777771' });
      expect(first.sent['1d']).toBeGreaterThanOrEqual(1);
      // Saturday 2028-03-04 names the same Monday: already told.
      await sendMaturityNotices(db(), '2028-03-04');
      const mails = await outboxFor(buyerEmail);
      expect(mails).toHaveLength(2);
      expect(mails[1]?.subject).toMatch(
        /^Vencimiento el próximo día hábil \(06\/03\/2028\): \$28,900\.00 MXN/,
      );
      expect(mails[1]?.body_text).toContain('- CLABE de cobranza de Flujo: 002010077777777771');
    });

    it('sends nothing for a batch already collected', async () => {
      // 2028-03-20 is a holiday: Friday 2028-03-17 + 1 business day = 2028-03-21, fully collected.
      await sendMaturityNotices(db(), '2028-03-17');
      expect(await outboxFor(buyerEmail)).toHaveLength(2);
    });
  });
});
