// @postgresql: two uploads of one REP race on payment_complements' unique folio fiscal, and reminders sent twice the same day meet on rep_reminders' key across connections.
import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCfdiXml, buildPaymentCfdiXml, type PaymentCfdiBuildInput } from '../../server/cfdi/build-cfdi';
import { sealRefusals } from '../../server/cfdi/verify-cfdi';
import { businessDate } from '../../server/http/business-date';
import { sendRepReminders } from '../../server/modules/invoices/rep-status';
import { importCfdiFiles } from '../../server/modules/sat/cfdi-import.service';
import { SAT_SYNC_ACTOR, syncIssuedCfdi } from '../../server/modules/sat/sat-link.service';
import { testInvoiceCfdi } from '../../server/modules/test-support/test-support.service';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { satPaymentComplementImporter } from '../../server/services/module-wiring';
import { invoiceLabel } from '../../src/domain/invoice-label';
import { PAYMENT_COMPLEMENT_MESSAGES, REP_REMINDER_SUBJECT } from '../../src/domain/payment-complements';
import type { CfdiProof } from '../../src/domain/schemas/cfdi-proof';
import type { DeskItem } from '../../src/domain/schemas/control-desk';
import type {
  PaymentComplementRefusal,
  PaymentComplementUploadResult,
} from '../../src/domain/schemas/payment-complements';
import { bearer, type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { testAuthenticity, testAuthority } from '../support/demo-authority';
import { createOperatorSession } from '../support/operator';
import { getJson, importInvoice } from '../support/pronto-pago';

// The payment complement (REP, CFDI type P) of a collected advance, through the HTTP API (issue 34, decision 0070).

const UPLOAD = '/api/providers/payment-complements/';
const [SUPPLIER, OTHER_SUPPLIER] = DEMO_PROVIDERS;

describe('payment complements (REP)', () => {
  let ctx: ApiTestContext;
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = () => businessDate(NOW);
  const db = () => ctx.database.db;
  let provider: Session;
  let analista: Session;
  let recorder: number;
  let folio = 0;

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    const operator = await createOperatorSession(ctx, { roles: ['analista'] });
    analista = { access: operator.access, refresh: operator.refresh } as Session;
    recorder = operator.userId;
  });
  afterAll(() => ctx.close());

  /** An invoice advanced (disbursed) and, with `collected`, paid by the buyer (one collection). */
  async function collectedInvoice(
    options: { issuer?: { rfc: string; name: string }; collected?: boolean } = {},
  ) {
    const id = await importInvoice(db(), {
      today: today(),
      ...(options.issuer ? { issuer: options.issuer } : {}),
    });
    const invoice = await db()
      .selectFrom('invoices')
      .select(['cfdi_uuid', 'amount', 'amount_with_exchange_rate'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await db()
      .insertInto('disbursements')
      .values({
        invoice_id: id,
        amount: invoice.amount_with_exchange_rate,
        reference: `SPEI-${id}`,
        due_on: today(),
      })
      .execute();
    // Paid out: the desk keeps it as 'paid' (what settling its SPEI batch does).
    await db()
      .insertInto('desk_items')
      .values({ invoice_id: id, state: 'paid', reason: null, decided_by: null, decided_by_username: null })
      .execute();
    if (options.collected !== false) {
      await db()
        .insertInto('collections')
        .values({
          invoice_id: id,
          amount: invoice.amount_with_exchange_rate,
          clave_rastreo: `COBRO${id}`,
          fecha: today(),
          recorded_by: recorder,
        })
        .execute();
    }
    return { id, uuid: invoice.cfdi_uuid, amount: invoice.amount };
  }

  function rep(
    documents: PaymentCfdiBuildInput['documents'],
    overrides: Partial<PaymentCfdiBuildInput> = {},
  ) {
    folio += 1;
    return buildPaymentCfdiXml(
      {
        serie: 'P',
        folio: String(folio),
        issuedAt: '2026-03-10T09:00:00',
        paidAt: '2026-03-09T12:00:00',
        currency: 'MXN',
        issuer: { rfc: SUPPLIER.rfc, name: SUPPLIER.name },
        receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
        documents,
        ...overrides,
      },
      testAuthority(),
    );
  }

  function upload(xml: string, session: Session = provider, name = 'rep.xml') {
    const boundary = 'limiterep';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\n` +
      `Content-Type: application/xml\r\n\r\n${xml}\r\n--${boundary}--\r\n`;
    return ctx.app.inject({
      method: 'POST',
      url: UPLOAD,
      headers: { ...bearer(session), 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload,
    });
  }

  const proof = async (invoiceId: number) =>
    (await getJson(ctx.app, `/api/invoices/${invoiceId}/proof/`, provider)).json() as CfdiProof;
  const rowCounts = async () => ({
    complements: (await db().selectFrom('payment_complements').select('id').execute()).length,
    links: (await db().selectFrom('payment_complement_links').select('id').execute()).length,
  });

  it('imports a signed REP, links it, and the history and the desk show «REP recibido»', async () => {
    const invoice = await collectedInvoice();
    expect((await proof(invoice.id)).payment_complement).toMatchObject({
      state: 'pendiente',
      text: 'REP pendiente',
    });

    const answer = await upload(
      rep([{ uuid: invoice.uuid, previousBalance: invoice.amount, paid: invoice.amount }]),
    );

    expect(answer.statusCode).toBe(200);
    const result = answer.json() as PaymentComplementUploadResult;
    expect(result).toMatchObject({
      status: 'imported',
      invoices: [{ invoice_id: invoice.id, cfdi_uuid: invoice.uuid }],
    });
    const history = await proof(invoice.id);
    expect(history.payment_complement).toEqual({
      state: 'recibido',
      label: 'REP recibido',
      uuid: result.uuid,
      issued_at: '2026-03-10T09:00:00',
      text: `REP recibido: ${result.uuid} del 10/03/2026`,
    });
    const desk = (await getJson(ctx.app, `/api/operator/desk/${invoice.id}/`, analista)).json() as DeskItem;
    expect(desk.payment_complement?.text).toBe(`REP recibido: ${result.uuid} del 10/03/2026`);
  });

  it('imports a signed REP that arrives through SAT’s sync as the REP it is; the invoices beside it as invoices', async () => {
    const invoice = await collectedInvoice();
    const repXml = rep([{ uuid: invoice.uuid, previousBalance: invoice.amount, paid: invoice.amount }]);
    folio += 1;
    const invoiceXml = buildCfdiXml(
      testInvoiceCfdi({
        folio: `S-${folio}`,
        issuer: { rfc: SUPPLIER.rfc, name: SUPPLIER.name },
        receiver: { rfc: DEMO_CORPORATE.rfc, name: DEMO_CORPORATE.name },
      }),
      testAuthority(),
    );
    const downloaded = [
      { name: 'rep-sat.xml', content: repXml },
      { name: 'factura-sat.xml', content: invoiceXml },
    ];
    // The deps server/app.ts and the ops commands give the sync: the REP importer is wired in, not imported.
    const deps = {
      db: db(),
      encryptionKey: Buffer.alloc(32),
      connector: { name: 'prueba', downloadIssuedCfdi: async () => downloaded, lastChange: () => null },
      authenticity: testAuthenticity(db()),
      paymentComplements: satPaymentComplementImporter,
      now: () => NOW,
    };

    const sync = await syncIssuedCfdi(deps, SUPPLIER.rfc);

    expect(sync.rejected).toEqual([]);
    expect(sync.imported.map((item) => item.name)).toEqual(['factura-sat.xml']);
    expect(sync.paymentComplements).toEqual([
      { name: 'rep-sat.xml', uuid: expect.any(String), status: 'imported' },
    ]);
    const repUuid = sync.paymentComplements?.[0]?.uuid;
    expect((await proof(invoice.id)).payment_complement).toMatchObject({
      label: 'REP recibido',
      text: `REP recibido: ${repUuid} del 10/03/2026`,
    });
    const desk = (await getJson(ctx.app, `/api/operator/desk/${invoice.id}/`, analista)).json() as DeskItem;
    expect(desk.payment_complement?.text).toBe(`REP recibido: ${repUuid} del 10/03/2026`);
    const imported = await db()
      .selectFrom('payment_complements')
      .select('imported_by')
      .where('cfdi_uuid', '=', repUuid as string)
      .executeTakeFirstOrThrow();
    expect(imported.imported_by).toBe(SAT_SYNC_ACTOR);

    // The next sync downloads the same REP again: the same import answers it unchanged and writes nothing.
    const before = await rowCounts();
    const again = await syncIssuedCfdi(deps, SUPPLIER.rfc);
    expect(again.paymentComplements).toEqual([{ name: 'rep-sat.xml', uuid: repUuid, status: 'unchanged' }]);
    expect(again.rejected).toEqual([]);
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a synced REP through the REP import’s own checks', async () => {
    const unknown = rep([
      { uuid: '6F1E2D3C-4B5A-4978-8877-665544332211', previousBalance: '10.00', paid: '10.00' },
    ]);
    const before = await rowCounts();
    const sync = await syncIssuedCfdi(
      {
        db: db(),
        encryptionKey: Buffer.alloc(32),
        connector: {
          name: 'prueba',
          downloadIssuedCfdi: async () => [{ name: 'rep-sat.xml', content: unknown }],
          lastChange: () => null,
        },
        authenticity: testAuthenticity(db()),
        paymentComplements: satPaymentComplementImporter,
        now: () => NOW,
      },
      SUPPLIER.rfc,
    );
    expect(sync.rejected).toEqual([
      {
        name: 'rep-sat.xml',
        reason: PAYMENT_COMPLEMENT_MESSAGES.unknownDocument('6F1E2D3C-4B5A-4978-8877-665544332211'),
      },
    ]);
    expect(await rowCounts()).toEqual(before);
  });

  it('never imports a REP as an invoice where no REP importer is wired', async () => {
    const invoice = await collectedInvoice();
    const xml = rep([{ uuid: invoice.uuid, previousBalance: invoice.amount, paid: invoice.amount }]);

    const result = await importCfdiFiles(db(), [{ name: 'rep.xml', content: xml }], {
      actorLabel: 'prueba',
      authenticity: testAuthenticity(db()),
    });

    expect(result).toEqual({
      imported: [],
      rejected: [{ name: 'rep.xml', reason: PAYMENT_COMPLEMENT_MESSAGES.isPayment }],
    });
  });

  it('shows no REP status for an advance the buyer has not paid yet', async () => {
    const invoice = await collectedInvoice({ collected: false });
    expect((await proof(invoice.id)).payment_complement).toBeNull();
  });

  it('refuses a forged seal with the invoices’ own message, and writes nothing', async () => {
    const invoice = await collectedInvoice();
    const genuine = rep([{ uuid: invoice.uuid, previousBalance: invoice.amount, paid: invoice.amount }]);
    const forged = genuine.replace(/ImpSaldoAnt="([0-9.]+)"/, 'ImpSaldoAnt="1.00"');
    const before = await rowCounts();

    const answer = await upload(forged);

    expect(answer.statusCode).toBe(400);
    expect(answer.json()).toEqual({
      detail: PAYMENT_COMPLEMENT_MESSAGES.refused,
      reasons: [sealRefusals.seal],
    } satisfies PaymentComplementRefusal);
    expect(await rowCounts()).toEqual(before);
    expect((await proof(invoice.id)).payment_complement?.state).toBe('pendiente');
  });

  it('refuses a REP naming an unknown invoice or another company’s, with a reason per document', async () => {
    const own = await collectedInvoice();
    const others = await collectedInvoice({ issuer: { rfc: OTHER_SUPPLIER.rfc, name: OTHER_SUPPLIER.name } });
    const unknown = '0F0F0F0F-1111-4222-8333-444455556666';
    const before = await rowCounts();

    const answer = await upload(
      rep([
        { uuid: own.uuid, previousBalance: own.amount, paid: own.amount },
        { uuid: unknown, previousBalance: '100.00', paid: '100.00' },
        { uuid: others.uuid, previousBalance: others.amount, paid: others.amount },
      ]),
    );

    expect(answer.statusCode).toBe(400);
    expect((answer.json() as PaymentComplementRefusal).reasons).toEqual([
      PAYMENT_COMPLEMENT_MESSAGES.unknownDocument(unknown),
      PAYMENT_COMPLEMENT_MESSAGES.otherCompanyDocument(others.uuid, SUPPLIER.rfc, DEMO_CORPORATE.rfc),
    ]);
    expect(await rowCounts()).toEqual(before);
  });

  it('refuses a REP another supplier issued, uploaded by this one', async () => {
    const others = await collectedInvoice({ issuer: { rfc: OTHER_SUPPLIER.rfc, name: OTHER_SUPPLIER.name } });
    const answer = await upload(
      rep([{ uuid: others.uuid, previousBalance: others.amount, paid: others.amount }], {
        issuer: { rfc: OTHER_SUPPLIER.rfc, name: OTHER_SUPPLIER.name },
      }),
    );
    expect(answer.statusCode).toBe(400);
    expect((answer.json() as PaymentComplementRefusal).reasons).toEqual([
      PAYMENT_COMPLEMENT_MESSAGES.notOwnIssuer(OTHER_SUPPLIER.rfc),
    ]);
  });

  it('the same REP twice changes nothing, also when both uploads race', async () => {
    const invoice = await collectedInvoice();
    const xml = rep([{ uuid: invoice.uuid, previousBalance: invoice.amount, paid: invoice.amount }]);
    const before = await rowCounts();

    const [first, second] = await Promise.all([upload(xml), upload(xml)]);
    const third = await upload(xml);

    const statuses = [first, second, third].map(
      (answer) => (answer.json() as PaymentComplementUploadResult).status,
    );
    expect(statuses.filter((status) => status === 'imported')).toHaveLength(1);
    expect(third.json()).toMatchObject({ status: 'unchanged', invoices: [{ invoice_id: invoice.id }] });
    expect(await rowCounts()).toEqual({ complements: before.complements + 1, links: before.links + 1 });
  });

  it('reminds the supplier once per interval until the REP arrives', async () => {
    const invoice = await collectedInvoice();
    const subject = REP_REMINDER_SUBJECT(
      invoiceLabel(
        await db()
          .selectFrom('invoices')
          .select(['serie', 'folio', 'cfdi_uuid'])
          .where('id', '=', invoice.id)
          .executeTakeFirstOrThrow(),
      ),
    );
    const mails = async () =>
      await db()
        .selectFrom('mail_outbox')
        .select(['recipient', 'subject'])
        .where('subject', '=', subject)
        .orderBy('id')
        .execute();
    const day = (days: number) => dayjs(today()).add(days, 'day').format('YYYY-MM-DD');
    const remindedNow = async (asOf: string) =>
      (await sendRepReminders(db(), asOf)).reminded.filter((item) => item.invoice_id === invoice.id);

    expect(await remindedNow(day(0))).toEqual([
      { invoice_id: invoice.id, reminder_number: 1, recipients: 1 },
    ]);
    // The same day again, from two processes at once: nothing more.
    const [again, concurrent] = await Promise.all([remindedNow(day(0)), remindedNow(day(0))]);
    expect([...again, ...concurrent]).toEqual([]);
    expect(await remindedNow(day(6))).toEqual([]);
    expect(await remindedNow(day(7))).toMatchObject([{ reminder_number: 2 }]);
    expect(await mails()).toEqual([
      { recipient: 'proveedor.demo@flujo.mx', subject },
      { recipient: 'proveedor.demo@flujo.mx', subject },
    ]);

    const answer = await upload(
      rep([{ uuid: invoice.uuid, previousBalance: invoice.amount, paid: invoice.amount }]),
    );
    expect(answer.statusCode).toBe(200);
    expect(await remindedNow(day(14))).toEqual([]);
    expect(await remindedNow(day(30))).toEqual([]);
    expect(await mails()).toHaveLength(2);
  });
});
