import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ForwardPaymentQuote, MessageResponse } from '../domain/schemas/invoices';
import { type AuthorizationRequestInput, authorizationRequestMachine } from './authorization-request.machine';
import {
  type AdvanceInvoice,
  type ApproveForwardPaymentInput,
  forwardPaymentMachine,
} from './forward-payment.machine';

const QUOTE: ForwardPaymentQuote = {
  max_rate: 17.4,
  days: 45,
  cost_financing: '2175.00',
  cost_consultancy: '1160.00',
  total: '96665.00',
  now: '2026-01-16',
};
/** A row of the list as 'Adelantar pago' sends it. */
function row(id: number): AdvanceInvoice {
  return {
    id,
    fiscal_folio: `uuid-${id}`,
    serie_folio: `F-${id}`,
    amount: '100000.00',
    amount_with_exchange_rate: '100000.00',
    amount_with_exchange_rate_usd: null,
    exchange_rate: '-',
  };
}
const OK: MessageResponse = { message: 'Tu adelanto de pago está en trámite.', message_type: 'success' };

function advance(answers: Array<'lost' | 'ok' | 'conflict'>) {
  const keys: string[] = [];
  const marked: number[] = [];
  let refreshed = 0;
  const machine = forwardPaymentMachine.provide({
    actors: {
      loadQuote: fromPromise(async () => QUOTE),
      approveForwardPayment: fromPromise<MessageResponse, ApproveForwardPaymentInput>(async ({ input }) => {
        keys.push(input.idempotencyKey);
        const answer = answers.shift();
        if (answer === 'lost') throw { status: 0, body: null };
        if (answer === 'conflict')
          throw {
            status: 409,
            body: { message: 'El adelanto de esta factura ya está en trámite.', message_type: 'error' },
          };
        return OK;
      }),
    },
    actions: {
      markAdvanced: (_, { invoiceId }) => void marked.push(invoiceId),
      refreshList: () => void refreshed++,
    },
  });
  const actor = createActor(machine).start();
  return { actor, keys, marked, refreshed: () => refreshed };
}

describe('forwardPaymentMachine', () => {
  it('retries a lost approval with the same key, and a new confirmation gets a new key', async () => {
    const { actor, keys, marked } = advance(['lost', 'ok', 'ok']);
    actor.send({ type: 'advance.open', invoice: row(7) });
    await waitFor(actor, (s) => s.matches('quoted'));
    actor.send({ type: 'advance.confirm' });
    await waitFor(actor, (s) => s.matches('answerLost'));
    actor.send({ type: 'advance.retry' });
    await waitFor(actor, (s) => s.matches('succeeded'));
    expect(keys).toHaveLength(2);
    expect(keys[0]).toBe(keys[1]);
    expect(marked).toEqual([7]);
    actor.send({ type: 'dialog.close' });
    actor.send({ type: 'advance.open', invoice: row(8) });
    await waitFor(actor, (s) => s.matches('quoted'));
    actor.send({ type: 'advance.confirm' });
    await waitFor(actor, (s) => s.matches('succeeded'));
    expect(keys[2]).not.toBe(keys[0]);
  });

  it("shows the server's refusal and reads the list again", async () => {
    const { actor, refreshed } = advance(['conflict']);
    actor.send({ type: 'advance.open', invoice: row(7) });
    await waitFor(actor, (s) => s.matches('quoted'));
    actor.send({ type: 'advance.confirm' });
    const refused = await waitFor(actor, (s) => s.matches('refused'));
    expect(refused.context.dialog).toEqual({
      message: 'El adelanto de esta factura ya está en trámite.',
      messageType: 'error',
    });
    expect(refreshed()).toBe(1);
  });
});

describe('authorizationRequestMachine', () => {
  it('sends one fresh key per request and marks the row requested', async () => {
    const keys: string[] = [];
    const marked: number[] = [];
    const actor = createActor(
      authorizationRequestMachine.provide({
        actors: {
          requestAuthorization: fromPromise<MessageResponse, AuthorizationRequestInput>(async ({ input }) => {
            keys.push(input.idempotencyKey);
            return {
              message: 'Solicitud enviada correctamente.',
              message_type: 'success',
            } as MessageResponse;
          }),
        },
        actions: { markRequested: (_, { invoiceId }) => void marked.push(invoiceId) },
      }),
    ).start();
    actor.send({ type: 'authorization.request', invoiceId: 3 });
    await waitFor(actor, (s) => s.matches('answered'));
    actor.send({ type: 'dialog.close' });
    actor.send({ type: 'authorization.request', invoiceId: 4 });
    await waitFor(actor, (s) => s.matches('answered'));
    expect(marked).toEqual([3, 4]);
    expect(new Set(keys).size).toBe(2);
  });
});
