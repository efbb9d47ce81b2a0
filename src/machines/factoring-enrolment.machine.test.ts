import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import {
  FACTORING_ENABLE_FAILED,
  FACTORING_NOT_ENABLED,
  FACTORING_QUOTE_FAILED,
  FACTORING_REQUEST_PENDING,
  factoringContactMessage,
} from '../domain/factoring-messages';
import type { FactoringQuote } from '../domain/schemas/factoring';
import type { MessageResponse } from '../domain/schemas/invoices';
import {
  DEFAULT_FACTORING_INSTALMENTS,
  factoringEnrolmentMachine,
  type TransferFactoringInput,
} from './factoring-enrolment.machine';
import { NO_RESPONSE_MESSAGE, SESSION_ENDED_MESSAGE } from './pronto-pago-messages';

const QUOTE: FactoringQuote = {
  max_rate: 18.5,
  days: 30,
  cost_financing: '1541.67',
  cost_consultancy: '1160.00',
  total: '98840.00',
  now: '2026-01-16',
  invoice_id: 7,
  fiscal_folio: 'UUID-7',
  amount: '100000.00',
  rate: 18.5,
  advisory_fee: '1160.00',
  amount_to_transfer: '98840.00',
  available_credit: '500000.00',
  options: [1, 2, 3, 4].map((n) => ({
    installments: n,
    days: n * 30,
    installment_payment: (((100000 * 0.185 * n * 30) / 360 + 100000) / n).toFixed(2),
    total_payment: ((100000 * 0.185 * n * 30) / 360 + 100000).toFixed(2),
  })),
};
const OK = {
  message: 'Tu factura está en factoraje.',
  message_type: 'success',
  factoring_request_id: 3,
} as const;
const LINE_EXHAUSTED = {
  status: 409,
  body: { message: 'Tu línea de factoraje no alcanza para esta factura.', message_type: 'error' },
};

type Answer<T> = T | { status: number; body: unknown };

function run(
  opts: {
    enable?: Answer<MessageResponse>[];
    quote?: Answer<FactoringQuote>[];
    transfer?: Answer<MessageResponse>[];
  } = {},
) {
  const inputs: TransferFactoringInput[] = [];
  const marked: number[] = [];
  let refreshed = 0;
  const next = <T>(answers: Answer<T>[] | undefined, fallback: T): T => {
    const answer = answers?.shift() ?? fallback;
    if (typeof answer === 'object' && answer !== null && 'status' in answer) throw answer;
    return answer as T;
  };
  const machine = factoringEnrolmentMachine.provide({
    actors: {
      enableFactoring: fromPromise(async () =>
        next<MessageResponse>(opts.enable, { message: FACTORING_NOT_ENABLED, message_type: 'info' }),
      ),
      loadQuote: fromPromise(async () => next(opts.quote, QUOTE)),
      transferFactoring: fromPromise<MessageResponse, TransferFactoringInput>(async ({ input }) => {
        inputs.push(input);
        return next(opts.transfer, OK);
      }),
    },
    actions: {
      markFactoring: (_, { invoiceId }) => void marked.push(invoiceId),
      refreshList: () => void refreshed++,
    },
  });
  const actor = createActor(machine).start();
  return { actor, inputs, marked, refreshed: () => refreshed };
}

const REQUEST = {
  type: 'factoring.request',
  invoice: {
    id: 7,
    fiscal_folio: 'UUID-7',
    serie_folio: 'A-7',
    amount: '100000.00',
    amount_with_exchange_rate: '100000.00',
    amount_with_exchange_rate_usd: null,
    exchange_rate: '-',
  },
  hasFactoring: true,
} as const;

describe('factoringEnrolmentMachine: enrolment', () => {
  it("sends the enable request for an account without a line and shows the server's answer", async () => {
    const { actor, refreshed } = run();
    actor.send({ ...REQUEST, hasFactoring: false });
    expect(actor.getSnapshot().value).toBe('enrolling');
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const answered = await waitFor(actor, (s) => s.matches('enrolmentAnswered'));
    expect(answered.context.dialog).toEqual({ message: FACTORING_NOT_ENABLED, messageType: 'info' });
    expect(refreshed()).toBe(1);
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.dialog).toBeNull();
  });

  it('shows the pending answer of a second click (one enable request per account)', async () => {
    const { actor } = run({ enable: [{ message: FACTORING_REQUEST_PENDING, message_type: 'info' }] });
    actor.send({ ...REQUEST, hasFactoring: false });
    const answered = await waitFor(actor, (s) => s.matches('enrolmentAnswered'));
    expect(answered.context.dialog?.message).toBe(FACTORING_REQUEST_PENDING);
  });

  it("the header card shows the contact text instead of the first request's answer, the server's otherwise", async () => {
    const first = run();
    first.actor.send({ type: 'enrolment.request', contactEmail: 'hola@flujo.mx' });
    const answered = await waitFor(first.actor, (s) => s.matches('enrolmentAnswered'));
    expect(answered.context.dialog).toEqual({
      message: factoringContactMessage('hola@flujo.mx'),
      messageType: 'info',
    });
    const second = run({ enable: [{ message: FACTORING_REQUEST_PENDING, message_type: 'info' }] });
    second.actor.send({ type: 'enrolment.request', contactEmail: 'hola@flujo.mx' });
    const pending = await waitFor(second.actor, (s) => s.matches('enrolmentAnswered'));
    expect(pending.context.dialog?.message).toBe(FACTORING_REQUEST_PENDING);
  });

  it.each([500, 0, 401])(
    "a failed enable request (status %i) shows 'Error al enviar solicitud'",
    async (status) => {
      const { actor } = run({ enable: [{ status, body: null }] });
      actor.send({ ...REQUEST, hasFactoring: false });
      const failed = await waitFor(actor, (s) => s.matches('enrolmentFailed'));
      expect(failed.context.dialog).toEqual({ message: FACTORING_ENABLE_FAILED, messageType: 'error' });
      actor.send({ type: 'dialog.close' });
      expect(actor.getSnapshot().value).toBe('closed');
    },
  );
});

describe('factoringEnrolmentMachine: quote', () => {
  it('opens the panel, loads the quote with one instalment chosen, and closes', async () => {
    const { actor } = run();
    actor.send(REQUEST);
    expect(actor.getSnapshot().hasTag('drawer')).toBe(true);
    const quoted = await waitFor(actor, (s) => s.matches('quoted'));
    expect(quoted.context.quote).toEqual(QUOTE);
    expect(quoted.context.instalments).toBe(DEFAULT_FACTORING_INSTALMENTS);
    actor.send({ type: 'factoring.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(actor.getSnapshot().context.quote).toBeNull();
  });

  it("chooses only the quote's options (1-4)", async () => {
    const { actor } = run();
    actor.send(REQUEST);
    await waitFor(actor, (s) => s.matches('quoted'));
    actor.send({ type: 'factoring.choose', instalments: 3 });
    expect(actor.getSnapshot().context.instalments).toBe(3);
    actor.send({ type: 'factoring.choose', instalments: 5 });
    actor.send({ type: 'factoring.choose', instalments: 0 });
    expect(actor.getSnapshot().context.instalments).toBe(3);
  });

  it("a server error offers a retry with the generic text; a refusal shows the server's words", async () => {
    const { actor, refreshed } = run({
      quote: [
        { status: 500, body: { detail: 'Error interno' } },
        { status: 403, body: { message: FACTORING_NOT_ENABLED, message_type: 'info' } },
      ],
    });
    actor.send(REQUEST);
    const failed = await waitFor(actor, (s) => s.matches('quoteFailed'));
    expect(failed.context.dialog).toEqual({ message: FACTORING_QUOTE_FAILED, messageType: 'error' });
    expect(failed.hasTag('drawer')).toBe(true);
    actor.send({ type: 'factoring.retry' });
    const refused = await waitFor(actor, (s) => s.matches('quoteFailed'));
    expect(refused.context.dialog).toEqual({ message: FACTORING_NOT_ENABLED, messageType: 'info' });
    expect(refreshed()).toBe(2);
    actor.send({ type: 'factoring.retry' });
    await waitFor(actor, (s) => s.matches('quoted'));
    expect(actor.getSnapshot().context.dialog).toBeNull();
    actor.send({ type: 'factoring.close' });
    actor.send(REQUEST);
    await waitFor(actor, (s) => s.matches('quoted'));
  });

  it('closes from a failed quote', async () => {
    const { actor } = run({ quote: [{ status: 0, body: null }] });
    actor.send(REQUEST);
    await waitFor(actor, (s) => s.matches('quoteFailed'));
    actor.send({ type: 'factoring.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });
});

describe('factoringEnrolmentMachine: transfer', () => {
  it("sends the chosen option with the quote's figures and marks the row FACTORING", async () => {
    const { actor, inputs, marked } = run();
    actor.send(REQUEST);
    await waitFor(actor, (s) => s.matches('quoted'));
    actor.send({ type: 'factoring.choose', instalments: 2 });
    actor.send({ type: 'factoring.transfer' });
    expect(actor.getSnapshot().hasTag('busy')).toBe(true);
    const done = await waitFor(actor, (s) => s.matches('transferred'));
    expect(inputs[0]?.request).toEqual({
      invoice_id: 7,
      rate: 18.5,
      installments: 2,
      factoringConsultingFee: '1160.00',
      installmentPayment: QUOTE.options[1]?.installment_payment,
      totalPayment: QUOTE.options[1]?.total_payment,
      invoiceFolio: 'UUID-7',
    });
    expect(inputs[0]?.idempotencyKey).toMatch(/^[0-9a-f-]{36}$/);
    expect(done.context.dialog).toEqual({ message: OK.message, messageType: 'success' });
    expect(marked).toEqual([7]);
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });

  it('retries a lost answer with the same key; a new confirmation gets a new key', async () => {
    const { actor, inputs, refreshed } = run({ transfer: [{ status: 0, body: null }, OK, OK] });
    actor.send(REQUEST);
    await waitFor(actor, (s) => s.matches('quoted'));
    actor.send({ type: 'factoring.transfer' });
    const lost = await waitFor(actor, (s) => s.matches('answerLost'));
    expect(lost.context.dialog?.message).toBe(NO_RESPONSE_MESSAGE);
    expect(lost.hasTag('drawer')).toBe(true);
    actor.send({ type: 'factoring.retry' });
    await waitFor(actor, (s) => s.matches('transferred'));
    expect(inputs[1]?.idempotencyKey).toBe(inputs[0]?.idempotencyKey);
    actor.send({ type: 'dialog.close' });
    actor.send(REQUEST);
    await waitFor(actor, (s) => s.matches('quoted'));
    actor.send({ type: 'factoring.transfer' });
    await waitFor(actor, (s) => s.matches('transferred'));
    expect(inputs[2]?.idempotencyKey).not.toBe(inputs[0]?.idempotencyKey);
    expect(refreshed()).toBe(0);
  });

  it('closing after a lost answer reads the list again (the transfer may have happened)', async () => {
    const { actor, refreshed, marked } = run({ transfer: [{ status: 0, body: null }] });
    actor.send(REQUEST);
    await waitFor(actor, (s) => s.matches('quoted'));
    actor.send({ type: 'factoring.transfer' });
    await waitFor(actor, (s) => s.matches('answerLost'));
    actor.send({ type: 'factoring.close' });
    expect(actor.getSnapshot().value).toBe('closed');
    expect(refreshed()).toBe(1);
    expect(marked).toEqual([]);
  });

  it.each([
    ['line exhausted (409)', LINE_EXHAUSTED, LINE_EXHAUSTED.body.message],
    [
      'server error',
      { status: 500, body: null },
      'Ocurrió un error inesperado. Por favor, intenta de nuevo.',
    ],
    ['session ended', { status: 401, body: { detail: 'x' } }, SESSION_ENDED_MESSAGE],
  ])('a refusal (%s) shows its message and reads the list again', async (_, error, message) => {
    const { actor, refreshed, marked } = run({ transfer: [error] });
    actor.send(REQUEST);
    await waitFor(actor, (s) => s.matches('quoted'));
    actor.send({ type: 'factoring.transfer' });
    const refused = await waitFor(actor, (s) => s.matches('refused'));
    expect(refused.context.dialog).toEqual({ message, messageType: 'error' });
    expect(refreshed()).toBe(1);
    expect(marked).toEqual([]);
    actor.send({ type: 'dialog.close' });
    expect(actor.getSnapshot().value).toBe('closed');
  });
});
