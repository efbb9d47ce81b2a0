import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  CAP_NODE_BY_STATUS,
  type CapActor,
  type ConcentrationCapEvent,
} from '../../src/machines/concentration-cap.machine';
import { addCompanyWithUser } from '../support/pronto-pago';
import {
  CAP_EVENTS,
  CAP_OPERATORS,
  concentrationCapModel,
  REFUSED_CAP_EVENTS,
} from './concentration-cap.model';
import { defineModelTests } from './harness/define-model-tests';
import { callServer, testApp } from './harness/test-server';
import { world } from './harness/world';

// Each event is the operator's call against the real server (POST operator/exposure/caps/ and its approve and
// reject); 'cap.supersede' is another cap on the same buyer proposed and approved. Every state is asserted
// through what an auditor reads (GET operator/exposure/caps/ and the row's stored status), and at every state
// each gesture the machine refuses there (and the wrong roles) must be refused by the server too. In process only.

interface Operator {
  access: string;
}

interface Ctx {
  corporateId: number;
  capId: number | null;
  operators: Map<number, Operator>;
}

let operators: Map<number, Operator> | null = null;

async function theOperators(): Promise<Map<number, Operator>> {
  if (operators) return operators;
  const made = new Map<number, Operator>();
  for (const actor of Object.values(CAP_OPERATORS)) {
    const session = await world.operatorSession(actor.roles);
    made.set(actor.userId, { access: session.access });
  }
  operators = made;
  return made;
}

const headersOf = (ctx: Ctx, actor: CapActor) => ({
  authorization: `Bearer ${ctx.operators.get(actor.userId)?.access ?? ''}`,
});

async function perform(ctx: Ctx, event: ConcentrationCapEvent): Promise<{ status: number; body: unknown }> {
  const body = { scope: 'buyer', kind: 'amount', value: '50000', company_id: ctx.corporateId };
  switch (event.type) {
    case 'cap.propose':
      return callServer('POST', '/api/operator/exposure/caps/', {
        headers: headersOf(ctx, event.actor),
        body,
      });
    case 'cap.approve':
      return callServer('POST', `/api/operator/exposure/caps/${ctx.capId ?? 0}/approve/`, {
        headers: { ...headersOf(ctx, event.actor), 'idempotency-key': randomUUID() },
        body: {},
      });
    case 'cap.reject':
      return callServer('POST', `/api/operator/exposure/caps/${ctx.capId ?? 0}/reject/`, {
        headers: headersOf(ctx, event.actor),
        body: {},
      });
    case 'cap.supersede': {
      const proposed = await callServer('POST', '/api/operator/exposure/caps/', {
        headers: headersOf(ctx, CAP_OPERATORS.analista),
        body: { ...body, value: '60000' },
      });
      expect(proposed.status).toBe(201);
      const id = (proposed.body as { id: number }).id;
      return callServer('POST', `/api/operator/exposure/caps/${id}/approve/`, {
        headers: { ...headersOf(ctx, CAP_OPERATORS.otherAprobador), 'idempotency-key': randomUUID() },
        body: {},
      });
    }
  }
}

async function storedStatus(ctx: Ctx): Promise<string | null> {
  if (ctx.capId === null) return null;
  const row = await testApp()
    .database.db.selectFrom('concentration_caps')
    .select('status')
    .where('id', '=', ctx.capId)
    .executeTakeFirstOrThrow();
  return row.status;
}

async function assertState(ctx: Ctx, state: AnyMachineSnapshot): Promise<void> {
  const node = String(state.value);
  const status = Object.entries(CAP_NODE_BY_STATUS).find(([, value]) => value === node)?.[0] ?? null;
  expect(await storedStatus(ctx)).toBe(status);
  const refused = [
    ...(CAP_EVENTS as readonly ConcentrationCapEvent[]).filter((event) => !state.can(event)),
    ...(REFUSED_CAP_EVENTS as readonly ConcentrationCapEvent[]),
  ].filter((event) => event.type !== 'cap.supersede' && !(event.type === 'cap.propose' && node !== 'draft'));
  for (const event of refused) {
    const what = `${JSON.stringify(event)} at ${node}`;
    expect(state.can(event), what).toBe(false);
    if (ctx.capId === null && event.type !== 'cap.propose') continue;
    const answer = await perform(ctx, event);
    expect([403, 404, 409], what).toContain(answer.status);
  }
  expect(await storedStatus(ctx)).toBe(status);
}

async function execute(ctx: Ctx, modelEvent: EventObject): Promise<void> {
  const event = modelEvent as ConcentrationCapEvent;
  const answer = await perform(ctx, event);
  expect(answer.status, `${JSON.stringify(event)}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  if (event.type === 'cap.propose') ctx.capId = (answer.body as { id: number }).id;
}

let corporates = 0;
defineModelTests<Ctx>(concentrationCapModel, {
  setup: async () => {
    corporates += 1;
    const tag = randomUUID().slice(0, 8);
    const { companyId } = await addCompanyWithUser(testApp().database.db, {
      rfc: null,
      name: `Corporativo del tope ${corporates} ${tag}`,
      username: `corporativo.tope.${tag}`,
      isCorporate: true,
    });
    return { corporateId: companyId, capId: null, operators: await theOperators() };
  },
  render: () => {},
  states: Object.fromEntries(
    Object.keys(concentrationCapModel.machine.config.states ?? {}).map((name) => [
      `#concentration-cap.${name}`,
      ({ ctx, state }: { ctx: Ctx; state: AnyMachineSnapshot }) => assertState(ctx, state),
    ]),
  ),
  events: Object.fromEntries(
    [...new Set(CAP_EVENTS.map((event) => event.type))].map((type) => [
      type,
      ({ ctx, event }: { ctx: Ctx; event: EventObject }) => execute(ctx, event),
    ]),
  ),
});
