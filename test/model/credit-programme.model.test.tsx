import { randomUUID } from 'node:crypto';
import { screen, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import dayjs from 'dayjs';
import { expect } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import { DEMO_COLLECTION_CLABE } from '../../server/config';
import { businessDate } from '../../server/http/business-date';
import {
  COLLECTIONS_DAY_JOB_ACTOR,
  runCollectionsDay,
} from '../../server/modules/collections/collections-day';
import { ISO_DATE_FORMAT } from '../../src/domain/calendar-date';
import {
  type CreditProgrammeEvent,
  isDelinquentValue,
  type ProgrammeActor,
  programmeStateOf,
} from '../../src/machines/credit-programme.machine';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { PROGRAMME_OUTCOMES } from '../../src/views/operator/programmes/programmes-page';
import { addCompanyWithUser, importInvoice } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import {
  creditProgrammeModel,
  MODEL_OPERATORS,
  PROGRAMME_EVENTS,
  REFUSED_PROGRAMME_EVENTS,
} from './credit-programme.model';
import { defineModelTests } from './harness/define-model-tests';
import { renderApp } from './harness/render-app';
import { callServer, testApp } from './harness/test-server';
import { world as modelWorld } from './harness/world';

// Each event is the real gesture of its operator against the real server behind MSW: «Aprobar», «Congelar» and
// «Descongelar» are clicked on /operacion/programas/ as that operator sees it; the proposal is POST
// operator/programmes/ (its dialog is the programme-actions model's page), and the business date passing the
// programme's end is the database's end date moved to yesterday. Every state is
// asserted through what an auditor reads (GET operator/programmes/{id}/), and at every state every gesture the
// machine refuses there (and the refused partitions: wrong roles, the proposer approving, a blank reason) is
// tried and must be refused by the server too, changing nothing. In process only: it reaches the database.

interface Operator {
  access: string;
  refresh: string;
  userId: number;
  roles: ProgrammeActor['roles'];
}

interface Ctx {
  corporateId: number;
  corporateName: string;
  corporateRfc: string;
  programmeId: number | null;
  operators: Map<number, Operator>;
}

let operators: Map<number, Operator> | null = null;
// Sessions are made again before their access token (ACCESS_TOKEN_MINUTES, 5 by default) runs out mid-run.
const SESSION_REUSE_MS = 3 * 60_000;
let operatorsMadeAt = 0;
let corporates = 0;

async function theOperators(): Promise<Map<number, Operator>> {
  if (operators && Date.now() - operatorsMadeAt < SESSION_REUSE_MS) return operators;
  const made = new Map<number, Operator>();
  for (const actor of Object.values(MODEL_OPERATORS)) {
    const session = await modelWorld.operatorSession(actor.roles);
    made.set(actor.userId, {
      access: session.access,
      refresh: session.refresh,
      userId: session.userId,
      roles: actor.roles,
    });
  }
  operators = made;
  operatorsMadeAt = Date.now();
  return made;
}

function operatorFor(ctx: Ctx, actor: ProgrammeActor): Operator {
  const operator = ctx.operators.get(actor.userId);
  if (!operator) throw new Error(`no operator for model user ${actor.userId}`);
  return operator;
}

const today = () => businessDate(new Date());
const dayFromToday = (days: number) => dayjs(today()).add(days, 'day').format(ISO_DATE_FORMAT);

/**
 * The day's collections find the buyer late: an advanced invoice of this corporate fell due 30 days ago and is
 * unpaid (the disbursement written as the desk writes it), then runCollectionsDay runs as the job and
 * `collections:run-day` do.
 */
async function lateInvoiceAndRunDay(ctx: Ctx): Promise<void> {
  const { db } = testApp().database;
  const invoiceId = await importInvoice(db, {
    today: today(),
    receiver: { rfc: ctx.corporateRfc, name: ctx.corporateName },
  });
  const amount = await db
    .selectFrom('invoices')
    .select('amount_with_exchange_rate')
    .where('id', '=', invoiceId)
    .executeTakeFirstOrThrow();
  await db
    .insertInto('disbursements')
    .values({
      invoice_id: invoiceId,
      amount: amount.amount_with_exchange_rate,
      reference: `MODELO${invoiceId}`,
      at: `${dayFromToday(-40)}T18:00:00Z`,
      due_on: dayFromToday(-30),
    })
    .execute();
  await runCollectionsDay(db, today(), {
    mailer: { send: async () => 'sent' },
    appBaseUrl: 'http://localhost',
    actor: COLLECTIONS_DAY_JOB_ACTOR,
    collectionClabe: DEMO_COLLECTION_CLABE,
  });
}

/** The buyer pays what its late invoices owe (a collection each, as tesorería records it). */
async function collectOverdue(ctx: Ctx): Promise<void> {
  const { db } = testApp().database;
  const owing = await db
    .selectFrom('disbursements as d')
    .innerJoin('invoices as i', 'i.id', 'd.invoice_id')
    .select(['i.id', 'i.amount_with_exchange_rate'])
    .where('i.receiver_company_id', '=', ctx.corporateId)
    .where((eb) =>
      eb.not(
        eb.exists(eb.selectFrom('collections as c').select('c.id').whereRef('c.invoice_id', '=', 'i.id')),
      ),
    )
    .execute();
  const tesoreria = operatorFor(ctx, MODEL_OPERATORS.tesoreria);
  for (const row of owing)
    await db
      .insertInto('collections')
      .values({
        invoice_id: row.id,
        amount: row.amount_with_exchange_rate,
        clave_rastreo: `MODELO${row.id}`,
        fecha: today(),
        recorded_by: tesoreria.userId,
      })
      .execute();
}

async function perform(ctx: Ctx, event: CreditProgrammeEvent): Promise<{ status: number; body: unknown }> {
  const id = ctx.programmeId ?? 0;
  if (event.type === 'programme.delinquent') {
    await lateInvoiceAndRunDay(ctx);
    return { status: 200, body: null };
  }
  if (event.type === 'programme.expire') {
    // The business date passes the end: the end becomes yesterday (what a calendar would do, without a clock).
    await testApp()
      .database.db.updateTable('credit_programmes')
      .set({ starts_on: dayFromToday(-30), ends_on: dayFromToday(-1) })
      .where('id', '=', id)
      .execute();
    return { status: 200, body: null };
  }
  const headers = { authorization: `Bearer ${operatorFor(ctx, event.actor).access}` };
  switch (event.type) {
    case 'programme.propose':
      return callServer('POST', '/api/operator/programmes/', {
        headers,
        body: {
          corporate_id: ctx.corporateId,
          limit: '1000000.00',
          starts_on: dayFromToday(-1),
          ends_on: dayFromToday(365),
        },
      });
    case 'programme.approve':
      return callServer('POST', `/api/operator/programmes/${id}/approve/`, {
        headers: { ...headers, 'idempotency-key': randomUUID() },
        body: {},
      });
    case 'programme.freeze':
      return callServer('POST', `/api/operator/programmes/${id}/freeze/`, {
        headers,
        body: { reason: event.reason },
      });
    case 'programme.unfreeze':
      return callServer('POST', `/api/operator/programmes/${id}/unfreeze/`, {
        headers,
        body: { reason: event.reason },
      });
  }
}

async function programmeState(ctx: Ctx): Promise<string | null> {
  if (ctx.programmeId === null) return null;
  const auditor = operatorFor(ctx, MODEL_OPERATORS.auditor);
  const answer = await callServer('GET', `/api/operator/programmes/${ctx.programmeId}/`, {
    headers: { authorization: `Bearer ${auditor.access}` },
  });
  expect(answer.status).toBe(200);
  const programme = (answer.body as { programme: { state: string; frozen_for: string | null } }).programme;
  // 'Congelado por morosidad' is congelado with its cause.
  return programme.frozen_for === 'morosidad' ? `${programme.state}:morosidad` : programme.state;
}

async function assertState(ctx: Ctx, state: AnyMachineSnapshot): Promise<void> {
  const name = programmeStateOf(state.value);
  const expected = isDelinquentValue(state.value) ? `${name}:morosidad` : name;
  if (name === 'borrador') expect(ctx.programmeId).toBeNull();
  else expect(await programmeState(ctx)).toBe(expected);

  const refused = [
    ...(PROGRAMME_EVENTS as readonly CreditProgrammeEvent[]).filter((event) => !state.can(event)),
    ...(REFUSED_PROGRAMME_EVENTS as readonly CreditProgrammeEvent[]),
  ].filter((event) => event.type !== 'programme.expire');
  for (const event of refused) {
    const what = `${JSON.stringify(event)} at ${expected}`;
    expect(state.can(event), `the machine accepts ${what}`).toBe(false);
    const answer = await perform(ctx, event);
    // The day's run refuses nothing: where the machine does not freeze, it changes nothing (asserted below).
    if (event.type === 'programme.delinquent') continue;
    expect([400, 403, 404, 409], what).toContain(answer.status);
    const detail = (answer.body as { detail?: string } | null)?.detail;
    if (answer.status !== 400) expect(typeof detail, what).toBe('string');
    if (event.type === 'programme.approve' && 'actor' in event && expected !== 'borrador') {
      const proposer = state.context.proposerId as number | null;
      // An analista is refused for its role first; an aprobador who proposed, for being the proposer.
      if (!event.actor.roles.includes('aprobador')) expect(detail, what).toMatch(/^Tu rol no permite/);
      else if (proposer === event.actor.userId) expect(detail, what).toMatch(/^Otro aprobador debe aprobar/);
    }
  }
  // Nothing the server refused changed the programme.
  if (name !== 'borrador') expect(await programmeState(ctx)).toBe(expected);
}

/** The programmes page as `operator` sees it, for one gesture; closed afterwards. */
async function onScreen(operator: Operator, gesture: () => Promise<void>): Promise<void> {
  localStorage.setItem(ACCESS_TOKEN_KEY, operator.access);
  localStorage.setItem(REFRESH_TOKEN_KEY, operator.refresh);
  setUser({ isAuthenticated: true, operatorRoles: [...operator.roles] });
  const view = renderApp('/operacion/programas/');
  try {
    await gesture();
  } finally {
    view.unmount();
  }
}

async function rowOf(table: string, name: string): Promise<HTMLElement> {
  const found = await screen.findByRole('table', { name: table }, SERVER_WAIT);
  return within(found).findByRole('row', { name: new RegExp(name) }, SERVER_WAIT);
}

/** «Aprobar», «Congelar» or «Descongelar», clicked by the event's operator; the page says it is done. */
async function click(ctx: Ctx, event: CreditProgrammeEvent, user: UserEvent): Promise<void> {
  await onScreen(operatorFor(ctx, 'actor' in event ? event.actor : MODEL_OPERATORS.auditor), async () => {
    if (event.type === 'programme.approve') {
      const row = await rowOf('Límites pendientes de aprobación', ctx.corporateName);
      await user.click(within(row).getByRole('button', { name: 'Aprobar' }));
      expect(
        await screen.findByText(PROGRAMME_OUTCOMES.approve(ctx.corporateName), {}, SERVER_WAIT),
      ).toBeTruthy();
      return;
    }
    if (event.type !== 'programme.freeze' && event.type !== 'programme.unfreeze') return;
    const gesture = event.type === 'programme.freeze' ? 'Congelar' : 'Descongelar';
    const row = await rowOf('Programas de crédito', ctx.corporateName);
    await user.click(await within(row).findByRole('button', { name: gesture }, SERVER_WAIT));
    const dialog = await screen.findByRole('dialog', { name: gesture }, SERVER_WAIT);
    await user.type(within(dialog).getByLabelText('Motivo'), event.reason);
    await user.click(within(dialog).getByRole('button', { name: gesture }));
    const done = event.type === 'programme.freeze' ? PROGRAMME_OUTCOMES.freeze : PROGRAMME_OUTCOMES.unfreeze;
    expect(await screen.findByText(done, {}, SERVER_WAIT)).toBeTruthy();
  });
}

async function execute(ctx: Ctx, modelEvent: EventObject, user: UserEvent): Promise<void> {
  const event = modelEvent as CreditProgrammeEvent;
  if (event.type === 'programme.unfreeze' && event.overdueCollected) await collectOverdue(ctx);
  if (
    event.type === 'programme.approve' ||
    event.type === 'programme.freeze' ||
    event.type === 'programme.unfreeze'
  )
    return click(ctx, event, user);
  const answer = await perform(ctx, event);
  expect(answer.status, `${JSON.stringify(event)}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  if (event.type === 'programme.propose') ctx.programmeId = (answer.body as { id: number }).id;
}

const executors = Object.fromEntries(
  [...new Set(PROGRAMME_EVENTS.map((event) => event.type))].map((type) => [
    type,
    ({ ctx, event, user }: { ctx: Ctx; event: EventObject; user: UserEvent }) => execute(ctx, event, user),
  ]),
);

const stateAssertions = Object.fromEntries(
  Object.keys(creditProgrammeModel.machine.config.states ?? {}).map((name) => [
    `#credit-programme.${name}`,
    ({ ctx, state }: { ctx: Ctx; state: AnyMachineSnapshot }) => assertState(ctx, state),
  ]),
);

/** A fresh corporate per path, without a programme. */
async function newCorporate(): Promise<Ctx> {
  corporates += 1;
  const { db } = testApp().database;
  const tag = randomUUID().slice(0, 8);
  const corporateName = `Corporativo del modelo ${corporates} ${tag}`;
  // Its own RFC, so the late invoice of 'programme.delinquent' is addressed to it.
  const corporateRfc = `MDL2601${String((corporates % 28) + 1).padStart(2, '0')}${String.fromCharCode(65 + (corporates % 26))}${String.fromCharCode(65 + (Math.floor(corporates / 26) % 26))}1`;
  const { companyId } = await addCompanyWithUser(db, {
    rfc: corporateRfc,
    name: corporateName,
    username: `corporativo.modelo.${tag}`,
  });
  await db.updateTable('companies').set({ is_corporate: true }).where('id', '=', companyId).execute();
  return {
    corporateId: companyId,
    corporateName,
    corporateRfc,
    programmeId: null,
    operators: await theOperators(),
  };
}

defineModelTests<Ctx>(creditProgrammeModel, {
  setup: newCorporate,
  render: () => {},
  states: stateAssertions,
  events: executors,
});
