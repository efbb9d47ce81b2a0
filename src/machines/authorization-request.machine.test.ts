import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { MessageResponse } from '../domain/schemas/invoices';
import { type AuthorizationRequestInput, authorizationRequestMachine } from './authorization-request.machine';
import { NO_RESPONSE_MESSAGE, SESSION_ENDED_MESSAGE, UNEXPECTED_MESSAGE } from './pronto-pago-messages';

const SENT: MessageResponse = {
  message: 'Solicitud enviada. Tu cliente la responderá en las próximas 24 horas.',
  message_type: 'success',
};
const CONFLICT = {
  status: 409,
  body: { message: 'La factura ya no está Por Autorizar.', message_type: 'warning' },
};
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

/** The machine with a fake request actor the test settles by hand, and the route's actions recorded. */
function requester() {
  const calls: {
    input: AuthorizationRequestInput;
    settle: (answer: MessageResponse | { error: unknown }) => void;
  }[] = [];
  const marked: number[] = [];
  let refreshed = 0;
  const machine = authorizationRequestMachine.provide({
    actors: {
      requestAuthorization: fromPromise<MessageResponse, AuthorizationRequestInput>(
        ({ input }) =>
          new Promise((resolve, reject) => {
            calls.push({
              input,
              settle: (answer) => ('error' in answer ? reject(answer.error) : resolve(answer)),
            });
          }),
      ),
    },
    actions: {
      markRequested: (_, { invoiceId }) => void marked.push(invoiceId),
      refreshList: () => void refreshed++,
    },
  });
  const actor = createActor(machine).start();
  return { actor, calls, marked, refreshed: () => refreshed };
}

describe('authorizationRequestMachine', () => {
  it('starts idle with nothing to show, and a close without a dialog does nothing', () => {
    const { actor } = requester();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().can({ type: 'dialog.close' })).toBe(false);
    expect(actor.getSnapshot().context).toEqual({ invoiceId: null, idempotencyKey: null, dialog: null });
  });

  it('sends the invoice with a fresh Idempotency-Key, busy until the server answers', async () => {
    const { actor, calls } = requester();
    actor.send({ type: 'authorization.request', invoiceId: 7 });
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('requesting');
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context.invoiceId).toBe(7);
    expect(snapshot.context.idempotencyKey).toMatch(UUID);
    await waitFor(actor, () => calls.length === 1);
    expect(calls[0]!.input).toEqual({ invoiceId: 7, idempotencyKey: snapshot.context.idempotencyKey });
  });

  it('ignores a second click while the first request is in the air', async () => {
    const { actor, calls } = requester();
    actor.send({ type: 'authorization.request', invoiceId: 7 });
    expect(actor.getSnapshot().can({ type: 'authorization.request', invoiceId: 8 })).toBe(false);
    actor.send({ type: 'authorization.request', invoiceId: 8 });
    await waitFor(actor, () => calls.length === 1);
    expect(actor.getSnapshot().context.invoiceId).toBe(7);
    calls[0]!.settle(SENT);
    await waitFor(actor, (s) => s.matches('answered'));
    expect(calls).toHaveLength(1);
  });

  it("shows the server's message, marks the row Solicitado and does not read the list again", async () => {
    const { actor, calls, marked, refreshed } = requester();
    actor.send({ type: 'authorization.request', invoiceId: 7 });
    await waitFor(actor, () => calls.length === 1);
    calls[0]!.settle(SENT);
    const answered = await waitFor(actor, (s) => s.matches('answered'));
    expect(answered.hasTag('busy')).toBe(false);
    expect(answered.context.dialog).toEqual({ message: SENT.message, messageType: 'success' });
    expect(marked).toEqual([7]);
    expect(refreshed()).toBe(0);
  });

  it("shows a refusal's own message and type, reads the list again and leaves the row alone", async () => {
    const { actor, calls, marked, refreshed } = requester();
    actor.send({ type: 'authorization.request', invoiceId: 7 });
    await waitFor(actor, () => calls.length === 1);
    calls[0]!.settle({ error: CONFLICT });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.dialog).toEqual({ message: CONFLICT.body.message, messageType: 'warning' });
    expect(marked).toEqual([]);
    expect(refreshed()).toBe(1);
  });

  it.each([
    ['no response', { status: 0, body: null }, NO_RESPONSE_MESSAGE],
    ['an ended session', { status: 401, body: { detail: 'Token inválido' } }, SESSION_ENDED_MESSAGE],
    ['a 400 detail', { status: 400, body: { detail: 'La factura no existe.' } }, 'La factura no existe.'],
    ['a server error', { status: 500, body: { detail: 'Traceback…' } }, UNEXPECTED_MESSAGE],
  ])('explains %s in Spanish', async (_, error, message) => {
    const { actor, calls } = requester();
    actor.send({ type: 'authorization.request', invoiceId: 7 });
    await waitFor(actor, () => calls.length === 1);
    calls[0]!.settle({ error });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.dialog).toEqual({ message, messageType: 'error' });
  });

  it.each(['answered', 'failed'] as const)(
    'closing the dialog from %s clears it, and the next request gets a new key',
    async (state) => {
      const { actor, calls } = requester();
      actor.send({ type: 'authorization.request', invoiceId: 7 });
      await waitFor(actor, () => calls.length === 1);
      calls[0]!.settle(state === 'answered' ? SENT : { error: CONFLICT });
      await waitFor(actor, (s) => s.matches(state));
      expect(actor.getSnapshot().can({ type: 'authorization.request', invoiceId: 8 })).toBe(false);
      actor.send({ type: 'dialog.close' });
      expect(actor.getSnapshot().value).toBe('idle');
      expect(actor.getSnapshot().context).toEqual({ invoiceId: null, idempotencyKey: null, dialog: null });
      actor.send({ type: 'authorization.request', invoiceId: 8 });
      await waitFor(actor, () => calls.length === 2);
      expect(calls[1]!.input.invoiceId).toBe(8);
      expect(calls[1]!.input.idempotencyKey).toMatch(UUID);
      expect(calls[1]!.input.idempotencyKey).not.toBe(calls[0]!.input.idempotencyKey);
    },
  );

  it('fails with the generic message when the route did not provide the call', async () => {
    const actor = createActor(authorizationRequestMachine).start();
    actor.send({ type: 'authorization.request', invoiceId: 7 });
    const failed = await waitFor(actor, (s) => s.matches('failed'));
    expect(failed.context.dialog).toEqual({ message: UNEXPECTED_MESSAGE, messageType: 'error' });
  });
});
