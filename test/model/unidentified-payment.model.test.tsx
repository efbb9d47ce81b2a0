import { expect } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  UNIDENTIFIED_REFUSALS,
  UNIDENTIFIED_STATE_LABELS,
  type UnidentifiedEvent,
  type UnidentifiedState,
  unidentifiedTransition,
} from '../../src/machines/unidentified-payment.machine';
import { defineModelTests } from './harness/define-model-tests';
import {
  REFUSED_UNIDENTIFIED_EVENTS,
  UNIDENTIFIED_EVENTS,
  unidentifiedPaymentModel,
} from './unidentified-payment.model';

// A queued payment's events are operators' calls whose money side is test/api/bank-statement.test.ts (assign,
// the maker-checker above the threshold, reject). Here each event is applied to a stored state through
// `unidentifiedTransition`, the call server/modules/credit-programmes/collection-queue.service.ts makes with the
// row locked before any change, and every state is asserted against the policy written out below. At every
// state the events the machine refuses are tried too: each must be refused in Spanish and change nothing.

interface Ctx {
  state: UnidentifiedState;
}

const EXPECTED_LABELS: Record<UnidentifiedState, string> = {
  pendiente: 'Pendiente',
  propuesta: 'Propuesta',
  aplicada: 'Aplicada',
  devuelta: 'Devuelta',
};

function assertState(ctx: Ctx, state: AnyMachineSnapshot): void {
  const node = String(state.value) as UnidentifiedState;
  expect(ctx.state).toBe(node);
  expect(UNIDENTIFIED_STATE_LABELS[node]).toBe(EXPECTED_LABELS[node]);
  const refused = [
    ...(UNIDENTIFIED_EVENTS as readonly UnidentifiedEvent[]).filter((event) => !state.can(event)),
    ...(REFUSED_UNIDENTIFIED_EVENTS as readonly UnidentifiedEvent[]),
  ];
  for (const event of refused) {
    const answer = unidentifiedTransition(ctx.state, event);
    expect(answer.ok, `${event.type} at ${node}`).toBe(false);
    if (answer.ok) continue;
    if (event.type === 'payment.approve' && node === 'propuesta')
      expect(answer.message).toBe(UNIDENTIFIED_REFUSALS.sameOperator);
    else if (
      (event.type === 'payment.reject' && node === 'propuesta') ||
      (event.type === 'payment.return' && node === 'pendiente')
    )
      expect(answer.message).toBe(UNIDENTIFIED_REFUSALS.reason);
    else expect(answer.message).toMatch(/«[^»]+»/);
  }
}

function execute(ctx: Ctx, modelEvent: EventObject): void {
  const event = modelEvent as UnidentifiedEvent;
  const answer = unidentifiedTransition(ctx.state, event);
  if (!answer.ok) throw new Error(`${event.type} at ${ctx.state}: ${answer.message}`);
  ctx.state = answer.state;
}

defineModelTests<Ctx>(unidentifiedPaymentModel, {
  setup: () => ({ state: 'pendiente' }),
  render: () => {},
  states: Object.fromEntries(
    Object.keys(unidentifiedPaymentModel.machine.config.states ?? {}).map((name) => [
      `#unidentifiedPayment.${name}`,
      async ({ ctx, state }: { ctx: Ctx; state: AnyMachineSnapshot }) => assertState(ctx, state),
    ]),
  ),
  events: Object.fromEntries(
    [...new Set(UNIDENTIFIED_EVENTS.map((event) => event.type))].map((type) => [
      type,
      async ({ ctx, event }: { ctx: Ctx; event: EventObject }) => execute(ctx, event),
    ]),
  ),
});
