// @postgresql: the batch's creator may not confirm it, and two result uploads of one batch serialize on its row lock across connections.
import dayjs from 'dayjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { cancelReservation } from '../../server/modules/credit-programmes/programme-ledger.repository';
import { applyInvoiceEvent } from '../../server/modules/invoices/lifecycle.service';
import { SatStatusUnavailableError } from '../../server/modules/sat/sat-status-client';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from '../../server/seed/demo-world';
import { clabeCheckDigit } from '../../src/domain/clabe';
import { InvoiceStatus } from '../../src/domain/invoice-status';
import { formatMoneyAmount, parseMoney } from '../../src/domain/money';
import type { OperatorRole } from '../../src/domain/operator-roles';
import type { Batch, ConfirmationResult, DeskItem } from '../../src/domain/schemas/control-desk';
import { bearer, type Session, sessionFor } from '../support/accounts';
import { type ApiTestContext, createApiApp } from '../support/api-app';
import { createOperatorSession } from '../support/operator';
import {
  addCompanyWithUser,
  advanceTo,
  getJson,
  importInvoice,
  postJson,
  statusOf,
} from '../support/pronto-pago';

// The control desk and SPEI batches through the HTTP API (issue 19, decision 0054).

const DESK = '/api/operator/desk/';
const PROVIDER_CLABE = `01218000123456789${clabeCheckDigit('01218000123456789')}`;
const BATCHES = '/api/operator/disbursements/';

describe('control desk and SPEI batches', () => {
  let ctx: ApiTestContext;
  const NOW = new Date('2026-03-10T18:00:00Z');
  const today = () => businessDate(NOW);
  const inDays = (days: number) => dayjs(today()).add(days, 'day').format('YYYY-MM-DD');
  const db = () => ctx.database.db;
  const sessions = {} as Record<OperatorRole, Session>;
  /** A second tesorería: who confirms what sessions.tesoreria batched (two people, decision 0059). */
  let otherTesoreria: Session & { userId: number; username: string };
  let provider: Session;
  let corporateId: number;

  beforeAll(async () => {
    ctx = await createApiApp({ now: () => NOW });
    for (const role of ['analista', 'aprobador', 'tesoreria', 'auditor'] as const) {
      const session = await createOperatorSession(ctx, { roles: [role] });
      sessions[role] = { access: session.access, refresh: session.refresh } as Session;
    }
    otherTesoreria = await createOperatorSession(ctx, {
      roles: ['tesoreria'],
      username: 'tesoreria.segunda',
    });
    provider = await sessionFor(ctx.app, 'proveedor.demo');
    const corporate = await db()
      .selectFrom('companies')
      .select('id')
      .where('rfc', '=', DEMO_CORPORATE.rfc)
      .executeTakeFirstOrThrow();
    corporateId = corporate.id;
    // The demo providers have no deposit CLABE in the demo world: the first gets a valid one (BBVA).
    await db()
      .updateTable('companies')
      .set({ disbursement_clabe: PROVIDER_CLABE })
      .where('rfc', '=', DEMO_PROVIDERS[0].rfc)
      .execute();
    // The buyer's active programme with room (helper C's demo world gives one; set here so the test stands alone).
    await db()
      .insertInto('credit_programmes')
      .values({ corporate_id: corporateId, limit_amount: '50000000.00', state: 'activo' })
      .onConflict((oc) =>
        oc.column('corporate_id').doUpdateSet({ limit_amount: '50000000.00', state: 'activo' }),
      )
      .execute();
  });
  afterAll(() => ctx.close());

  const checkOf = (item: DeskItem) => item.checks.find((check) => check.id === 'cfdi_vigente');
  const proofOf = async (invoiceId: number) =>
    (
      await db()
        .selectFrom('invoices')
        .select('proof_state')
        .where('id', '=', invoiceId)
        .executeTakeFirstOrThrow()
    ).proof_state;

  /** An invoice of the demo provider (or another issuer) advanced to En trámite, its amount reserved. */
  async function advancedInvoice(
    options: {
      issuer?: { rfc: string; name: string };
      reserve?: boolean;
      /** A dollar CFDI: its subtotal in USD and its TipoCambio. */
      usd?: { subtotal: string; exchangeRate: string };
    } = {},
  ) {
    const id = await importInvoice(db(), {
      today: today(),
      ...(options.issuer ? { issuer: options.issuer } : {}),
      ...(options.usd ? { currency: 'USD' as const, ...options.usd } : {}),
    });
    await advanceTo(db(), id, 'approved', inDays(30));
    const invoice = await db()
      .selectFrom('invoices')
      .select(['emitter_company_id', 'amount_with_exchange_rate'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    await applyInvoiceEvent(
      db(),
      id,
      {
        type: 'invoice.approveAdvance',
        actor: { kind: 'provider', companyId: invoice.emitter_company_id, satAuthorized: true },
      },
      { userId: null, label: 'prueba' },
    );
    // 'Adelantar pago' reserved the amount (the lifecycle's programme hook); `reserve: false` models an advance
    // that entered En trámite before its buyer had a programme.
    if (options.reserve === false) await cancelReservation(db(), id, null);
    return id;
  }

  const ledgerKinds = async (invoiceId: number) =>
    (
      await db()
        .selectFrom('programme_ledger')
        .select('kind')
        .where('invoice_id', '=', invoiceId)
        .orderBy('id')
        .execute()
    ).map((row) => row.kind);

  function upload(batchId: number, csv: string, session: Session, key?: string) {
    const boundary = 'limitecsv';
    const payload =
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="resultado.csv"\r\n` +
      `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
    return ctx.app.inject({
      method: 'POST',
      url: `${BATCHES}${batchId}/confirmation/`,
      payload,
      headers: {
        ...bearer(session),
        'content-type': `multipart/form-data; boundary=${boundary}`,
        ...(key ? { 'idempotency-key': key } : {}),
      },
    });
  }

  async function approvedAndBatched(invoiceId: number): Promise<Batch> {
    expect((await postJson(ctx.app, `${DESK}${invoiceId}/approve/`, sessions.aprobador, {})).statusCode).toBe(
      200,
    );
    const answer = await postJson(ctx.app, BATCHES, sessions.tesoreria, { invoice_ids: [invoiceId] });
    expect(answer.statusCode, answer.body).toBe(201);
    return answer.json() as Batch;
  }

  it('shows every advance in process on the desk with its checks passing', async () => {
    const id = await advancedInvoice();
    const answer = await getJson(ctx.app, `${DESK}${id}/`, sessions.auditor);
    expect(answer.statusCode).toBe(200);
    const item = answer.json() as DeskItem;
    expect(item.checks.map((check) => [check.id, check.ok, check.ok ? '' : check.reason])).toEqual([
      ['sat_link', true, ''],
      ['cfdi_proof', true, ''],
      ['cfdi_vigente', true, ''],
      ['efos', true, ''],
      ['alliance', true, ''],
      ['programme', true, ''],
      ['clabe', true, ''],
      ['duplicate_uuid', true, ''],
      ['amount_bounds', true, ''],
      ['concentration', true, ''],
    ]);
    expect(item).toMatchObject({
      invoice_id: id,
      state: 'queued',
      state_label: 'En la mesa',
      checks_pass: true,
    });
    const page = (await getJson(ctx.app, `${DESK}?state=queued`, sessions.analista)).json() as {
      results: DeskItem[];
    };
    expect(page.results.map((row) => row.invoice_id)).toContain(id);
    expect((await getJson(ctx.app, `${DESK}?state=pagado`, sessions.auditor)).json()).toEqual({
      state: ['Valor no válido'],
    });
  });

  it("carries a dollar invoice's own amount and TipoCambio beside its peso value, as the invoice lists do", async () => {
    const id = await advancedInvoice({ usd: { subtotal: '5250.00', exchangeRate: '16.7948' } });
    const item = (await getJson(ctx.app, `${DESK}${id}/`, sessions.auditor)).json() as DeskItem;
    // 5,250.00 + 16 % IVA = 6,090.00 USD; × 16.7948 = 102,280.33 MXN.
    expect(item).toMatchObject({
      amount: '102280.33',
      amount_with_exchange_rate_usd: '6090.00',
      exchange_rate: '16.7948',
    });
    const peso = (await getJson(ctx.app, `${DESK}${await advancedInvoice()}/`, sessions.auditor)).json();
    expect(peso).toMatchObject({ amount_with_exchange_rate_usd: null, exchange_rate: '-' });
  });

  it('refuses to approve while a check fails, with each failing reason, and changes nothing', async () => {
    const rfc = 'PMD210101AB1';
    const { companyId } = await addCompanyWithUser(db(), {
      rfc,
      name: 'Proveedor Sin Clabe',
      username: 'sin.clabe',
    });
    await db()
      .insertInto('alliances')
      .values({
        corporate_id: corporateId,
        provider_id: companyId,
        max_rate: '20.00',
        max_amount: '1.00',
        max_days: 10,
      })
      .execute();
    const id = await advancedInvoice({ issuer: { rfc, name: 'Proveedor Sin Clabe' }, reserve: false });
    const answer = await postJson(ctx.app, `${DESK}${id}/approve/`, sessions.aprobador, {});
    expect(answer.statusCode).toBe(409);
    const body = answer.json() as { detail: string; errors: string[] };
    expect(body.detail).toBe('No se puede aprobar: hay verificaciones que no pasan.');
    expect(body.errors).toEqual([
      'Programa de crédito: La factura no tiene una reserva en el programa de crédito.',
      'CLABE del proveedor: El proveedor no tiene CLABE de depósito.',
      expect.stringMatching(
        /^Límites de la alianza: El monto .* excede el máximo .*Faltan 30 días para el pago; la alianza permite hasta 10\.$/,
      ),
    ]);
    const item = (await getJson(ctx.app, `${DESK}${id}/`, sessions.aprobador)).json() as DeskItem;
    expect(item.state).toBe('queued');
    // A SAT cancellation and a revoked SAT link show as failing checks too.
    await db()
      .updateTable('invoices')
      .set({ sat_cancelled_at: '2026-03-09T10:00:00Z' })
      .where('id', '=', id)
      .execute();
    await db().updateTable('companies').set({ sat_status: 40 }).where('id', '=', companyId).execute();
    const after = (await getJson(ctx.app, `${DESK}${id}/`, sessions.aprobador)).json() as DeskItem;
    expect(after.checks.filter((check) => !check.ok).map((check) => check.id)).toEqual([
      'sat_link',
      'cfdi_vigente',
      'programme',
      'clabe',
      'amount_bounds',
    ]);
  });

  it('asks SAT again before approving and before batching: silence waits, a cancellation stops the batch', async () => {
    const id = await advancedInvoice();
    const vigente = checkOf((await getJson(ctx.app, `${DESK}${id}/`, sessions.aprobador)).json() as DeskItem);
    expect(vigente).toMatchObject({
      ok: true,
      reason: expect.stringMatching(/^Vigente en el SAT \(consultado el /),
    });

    // SAT does not answer: the approval is refused, the check reads pending, nothing is decided.
    const authenticity = ctx.app.authenticity;
    const answering = authenticity.satStatus;
    authenticity.satStatus = () => ({
      consult: async () => {
        throw new SatStatusUnavailableError('timeout', 'test: SAT held the request');
      },
    });
    try {
      const refused = await postJson(ctx.app, `${DESK}${id}/approve/`, sessions.aprobador, {});
      expect(refused.statusCode).toBe(409);
      expect(JSON.stringify(refused.json())).toContain('Pendiente (el SAT no respondió el ');
    } finally {
      authenticity.satStatus = answering;
    }
    const waiting = (await getJson(ctx.app, `${DESK}${id}/`, sessions.aprobador)).json() as DeskItem;
    expect(waiting.state).toBe('queued');
    expect(await proofOf(id)).toBe('pending');

    // SAT answers again: approved. Then SAT cancels the CFDI before tesorería batches it: no batch, no order.
    expect((await postJson(ctx.app, `${DESK}${id}/approve/`, sessions.aprobador, {})).statusCode).toBe(200);
    expect(await proofOf(id)).toBe('trusted');
    const uuid = (
      await db().selectFrom('invoices').select('cfdi_uuid').where('id', '=', id).executeTakeFirstOrThrow()
    ).cfdi_uuid;
    await db().insertInto('sandbox_sat_cancellations').values({ cfdi_uuid: uuid }).execute();
    const orders = await db().selectFrom('spei_orders').select('id').execute();
    const batch = await postJson(ctx.app, BATCHES, sessions.tesoreria, { invoice_ids: [id] });
    expect(batch.statusCode).toBe(409);
    expect(JSON.stringify(batch.json())).toContain('Cancelado en el SAT (consultado el ');
    expect(await db().selectFrom('spei_orders').select('id').execute()).toHaveLength(orders.length);
    expect(await proofOf(id)).toBe('refused');
  });

  it('rejects with a reason: back to Autorizada, reservation cancelled, provider e-mailed, audited', async () => {
    const id = await advancedInvoice();
    const blank = await postJson(ctx.app, `${DESK}${id}/reject/`, sessions.aprobador, { reason: '  ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ reason: ['Indica el motivo del rechazo.'] });
    const reason = 'La CLABE registrada no corresponde al proveedor';
    const answer = await postJson(ctx.app, `${DESK}${id}/reject/`, sessions.aprobador, { reason });
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ state: 'rejected', reason });
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.APPROVED);
    const event = await db()
      .selectFrom('invoice_events')
      .selectAll()
      .where('invoice_id', '=', id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(event).toMatchObject({ event: 'invoice.deskReject', from_status: 50, to_status: 30, reason });
    expect(await ledgerKinds(id)).toEqual(['reserve', 'cancel']);
    const mail = await db()
      .selectFrom('mail_outbox')
      .selectAll()
      .where('recipient', 'like', '%')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toMatch(/^No pudimos adelantar tu factura /);
    expect(mail.body_text).toContain(`Motivo: ${reason}`);
    const audit = await db()
      .selectFrom('operator_actions')
      .selectAll()
      .where('action', '=', 'Rechazar adelanto')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(audit).toMatchObject({ status_code: 200, reason });
    // The provider sees the reason in the invoice's trail (Historial).
    const trail = (await getJson(ctx.app, `/api/invoices/${id}/events/`, provider)).json() as {
      reason: string;
    }[];
    expect(trail.at(-1)?.reason).toBe(reason);
    // Rejected twice? The invoice is no longer on the desk.
    expect((await postJson(ctx.app, `${DESK}${id}/reject/`, sessions.aprobador, { reason })).statusCode).toBe(
      404,
    );
  });

  it('batches an approved advance into one SPEI order, with its layout, and pays it once on liquidada', async () => {
    const id = await advancedInvoice();
    const batch = await approvedAndBatched(id);
    const invoice = await db()
      .selectFrom('invoices')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    const payout = formatMoneyAmount(
      parseMoney(invoice.amount_with_exchange_rate) -
        parseMoney(invoice.cost_financing ?? '0') -
        parseMoney(invoice.cost_consultancy ?? '0'),
    );
    const [order] = batch.orders;
    expect(batch.orders).toHaveLength(1);
    expect(order).toMatchObject({
      invoice_id: id,
      clave_rastreo: `FLUJO${batch.id}F${id}`,
      beneficiary_clabe: PROVIDER_CLABE,
      beneficiary_rfc: DEMO_PROVIDERS[0].rfc,
      amount: payout,
      state: 'pendiente',
    });
    expect(order?.beneficiary_name.length).toBeLessThanOrEqual(39);
    expect(order?.concepto).toMatch(/^ADELANTO FACTURA /);
    expect(String(order?.referencia_numerica)).toMatch(/^\d{1,7}$/);
    expect(((await getJson(ctx.app, `${DESK}${id}/`, sessions.auditor)).json() as DeskItem).state).toBe(
      'in_batch',
    );

    const layout = await getJson(ctx.app, `${BATCHES}${batch.id}/layout.csv`, sessions.tesoreria);
    expect(layout.statusCode).toBe(200);
    expect(layout.headers['content-type']).toMatch(/^text\/csv/);
    expect(layout.body.split('\r\n')).toEqual([
      'clave_rastreo,referencia_numerica,institucion_contraparte,tipo_cuenta_beneficiario,cuenta_beneficiario,' +
        'nombre_beneficiario,rfc_curp_beneficiario,monto,concepto_pago',
      [
        order?.clave_rastreo,
        order?.referencia_numerica,
        '40012',
        '40',
        PROVIDER_CLABE,
        order?.beneficiary_name.includes(',') ? `"${order.beneficiary_name}"` : order?.beneficiary_name,
        DEMO_PROVIDERS[0].rfc,
        payout,
        order?.concepto,
      ].join(','),
      '',
    ]);

    const file = `clave_rastreo,estado,motivo\r\n${order?.clave_rastreo},liquidada,\r\n`;
    const confirmed = await upload(batch.id, file, otherTesoreria);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const result = confirmed.json() as ConfirmationResult;
    expect(result).toMatchObject({ applied: 1, unchanged: 0 });
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.PAID);
    const paid = await db().selectFrom('disbursements').selectAll().where('invoice_id', '=', id).execute();
    expect(paid).toMatchObject([{ amount: payout, reference: order?.clave_rastreo }]);
    expect(await ledgerKinds(id)).toEqual(['reserve', 'use']);
    const mail = await db()
      .selectFrom('mail_outbox')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(mail.subject).toMatch(/^Pagamos el adelanto de tu factura /);

    // The same file again: the clave already confirmed, nothing changes, and the answer says so.
    const replay = await upload(batch.id, file, otherTesoreria);
    expect(replay.statusCode).toBe(200);
    expect(replay.json()).toMatchObject({
      applied: 0,
      unchanged: 1,
      results: [
        {
          applied: false,
          message: `La orden ${order?.clave_rastreo} ya estaba confirmada como liquidada; sin cambios.`,
        },
      ],
    });
    expect(
      await db().selectFrom('disbursements').selectAll().where('invoice_id', '=', id).execute(),
    ).toHaveLength(1);
    expect(await ledgerKinds(id)).toEqual(['reserve', 'use']);
    const batches = (await getJson(ctx.app, BATCHES, sessions.auditor)).json() as {
      results: { id: number; settled: number }[];
    };
    expect(batches.results.find((row) => row.id === batch.id)).toMatchObject({ settled: 1 });
  });

  it('a devuelta order goes back to the desk with the bank reason, keeping the reservation', async () => {
    const id = await advancedInvoice();
    const batch = await approvedAndBatched(id);
    const clave = batch.orders[0]?.clave_rastreo;
    const answer = await upload(
      batch.id,
      `clave_rastreo,estado,motivo\n${clave},devuelta,Cuenta inexistente\n`,
      otherTesoreria,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    const item = (await getJson(ctx.app, `${DESK}${id}/`, sessions.auditor)).json() as DeskItem;
    expect(item).toMatchObject({ state: 'returned', reason: 'Cuenta inexistente' });
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.PROCESS);
    expect(await ledgerKinds(id)).toEqual(['reserve']);
    // Back on the desk: approved again, it makes a new order in a new batch.
    const again = await approvedAndBatched(id);
    expect(again.orders[0]?.clave_rastreo).not.toBe(clave);
  });

  it('refuses a bad result file line by line and changes nothing', async () => {
    const id = await advancedInvoice();
    const batch = await approvedAndBatched(id);
    const clave = batch.orders[0]?.clave_rastreo;
    const bad = await upload(
      batch.id,
      `clave_rastreo,estado,motivo\n${clave},pagada,\nFLUJO0F0,devuelta,\n`,
      otherTesoreria,
    );
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({
      detail: 'El archivo de resultados tiene errores; no se aplicó ninguna línea.',
      errors: [
        'Línea 2: el estado debe ser liquidada o devuelta.',
        'Línea 3: una orden devuelta necesita su motivo.',
      ],
    });
    const unknown = await upload(
      batch.id,
      `clave_rastreo,estado,motivo\n${clave},liquidada,\nFLUJO999F1,liquidada,\n`,
      otherTesoreria,
    );
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({
      errors: [`Línea 3: la clave de rastreo FLUJO999F1 no pertenece al lote ${batch.id}.`],
    });
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.PROCESS);
    expect(
      ((await getJson(ctx.app, `${BATCHES}${batch.id}/`, sessions.auditor)).json() as Batch).orders[0]?.state,
    ).toBe('pendiente');
  });

  it('refuses the result file to the tesorería who made the batch, and changes nothing', async () => {
    const id = await advancedInvoice();
    const batch = await approvedAndBatched(id);
    const file = `clave_rastreo,estado,motivo\n${batch.orders[0]?.clave_rastreo},liquidada,\n`;
    const refused = await upload(batch.id, file, sessions.tesoreria);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      detail:
        'Quien creó el lote no puede confirmar su resultado: pide a otra persona de tesorería o a un aprobador que cargue el archivo del banco.',
    });
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.PROCESS);
    const after = (await getJson(ctx.app, `${BATCHES}${batch.id}/`, sessions.auditor)).json() as Batch;
    expect(after.orders[0]).toMatchObject({ state: 'pendiente', confirmed_by: null });
    expect(
      await db().selectFrom('disbursements').select('id').where('invoice_id', '=', id).execute(),
    ).toHaveLength(0);
  });

  it('a second tesorería confirms the result file, and the order records who (id and username)', async () => {
    const id = await advancedInvoice();
    const batch = await approvedAndBatched(id);
    const clave = batch.orders[0]?.clave_rastreo ?? '';
    const answer = await upload(
      batch.id,
      `clave_rastreo,estado,motivo\n${clave},liquidada,\n`,
      otherTesoreria,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ applied: 1 });
    expect(await statusOf(db(), id)).toBe(InvoiceStatus.PAID);
    const after = (await getJson(ctx.app, `${BATCHES}${batch.id}/`, sessions.auditor)).json() as Batch;
    expect(after.orders[0]).toMatchObject({ state: 'liquidada', confirmed_by: 'tesoreria.segunda' });
    const order = await db()
      .selectFrom('spei_orders')
      .select(['confirmed_by', 'confirmed_by_username'])
      .where('clave_rastreo', '=', clave)
      .executeTakeFirstOrThrow();
    expect(order).toEqual({
      confirmed_by: otherTesoreria.userId,
      confirmed_by_username: 'tesoreria.segunda',
    });
  });

  it('an aprobador may confirm the result file of a batch tesorería made', async () => {
    const id = await advancedInvoice();
    const batch = await approvedAndBatched(id);
    const clave = batch.orders[0]?.clave_rastreo;
    const answer = await upload(
      batch.id,
      `clave_rastreo,estado,motivo\n${clave},devuelta,Cuenta cancelada\n`,
      sessions.aprobador,
    );
    expect(answer.statusCode, answer.body).toBe(200);
    expect(answer.json()).toMatchObject({ applied: 1 });
    const item = (await getJson(ctx.app, `${DESK}${id}/`, sessions.auditor)).json() as DeskItem;
    expect(item).toMatchObject({ state: 'returned', reason: 'Cuenta cancelada' });
  });

  it('two uploads of one result file at once pay the advance once', async () => {
    const id = await advancedInvoice();
    const batch = await approvedAndBatched(id);
    const file = `clave_rastreo,estado,motivo\n${batch.orders[0]?.clave_rastreo},liquidada,\n`;
    const answers = await Promise.all([
      upload(batch.id, file, otherTesoreria),
      upload(batch.id, file, sessions.aprobador),
    ]);
    expect(answers.map((answer) => answer.statusCode)).toEqual([200, 200]);
    const applied = answers.map((answer) => (answer.json() as ConfirmationResult).applied).sort();
    expect(applied).toEqual([0, 1]);
    expect(
      await db().selectFrom('disbursements').select('id').where('invoice_id', '=', id).execute(),
    ).toHaveLength(1);
    expect(await ledgerKinds(id)).toEqual(['reserve', 'use']);
  });

  it('refuses batching what is not approved, and every call to the wrong role', async () => {
    const id = await advancedInvoice();
    const queued = await postJson(ctx.app, BATCHES, sessions.tesoreria, { invoice_ids: [id] });
    expect(queued.statusCode).toBe(409);
    expect(queued.json()).toMatchObject({ detail: 'Solo los adelantos aprobados entran a un lote.' });
    expect((await postJson(ctx.app, BATCHES, sessions.tesoreria, { invoice_ids: [] })).json()).toEqual({
      invoice_ids: ['Selecciona al menos un adelanto aprobado.'],
    });
    const refusals = [
      [await postJson(ctx.app, `${DESK}${id}/approve/`, sessions.analista, {}), 'Aprobador'],
      [await postJson(ctx.app, `${DESK}${id}/reject/`, sessions.tesoreria, { reason: 'x' }), 'Aprobador'],
      [await postJson(ctx.app, BATCHES, sessions.aprobador, { invoice_ids: [id] }), 'Tesorería'],
      [await upload(1, 'clave_rastreo,estado,motivo\n', sessions.auditor), 'Aprobador o Tesorería'],
    ] as const;
    for (const [answer, role] of refusals) {
      expect(answer.statusCode).toBe(403);
      expect(answer.json()).toEqual({ detail: `Tu rol no permite esta acción. Se requiere: ${role}.` });
    }
    const asProvider = await getJson(ctx.app, DESK, provider);
    expect(asProvider.statusCode).toBe(403);
    expect(((await getJson(ctx.app, `${DESK}${id}/`, sessions.auditor)).json() as DeskItem).state).toBe(
      'queued',
    );
  });
});
