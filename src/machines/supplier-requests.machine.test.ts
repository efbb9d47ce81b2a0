import { describe, expect, it } from 'vitest';
import { createActor, fromPromise } from 'xstate';
import { InvoiceStatus } from '../domain/invoice-status';
import type { AuthorizeRejectResponse } from '../domain/schemas/quotations';
import { NO_RESPONSE_MESSAGE } from './pronto-pago-messages';
import {
  type AuthorizeRequestsInput,
  failureMessages,
  type RejectRequestsInput,
  supplierRequestsMachine,
} from './supplier-requests.machine';

const LINES = [
  { invoiceId: 7, label: 'A-7', paymentDate: '2030-01-31' },
  { invoiceId: 8, label: 'A-8', paymentDate: '2030-02-28' },
];
const ANSWER: AuthorizeRejectResponse = { message: 'Listo', payment_date_message: 'Fechas' };

describe('failureMessages', () => {
  it('names each refused line by its folio', () => {
    const error = { status: 400, body: { '1.payment_date': ['Debe ser una fecha válida'] } };
    expect(failureMessages(error, LINES)).toEqual(['Factura A-8: Debe ser una fecha válida']);
  });

  it("shows a refusal's detail, and a Spanish text when nothing answered", () => {
    expect(
      failureMessages({ status: 409, body: { detail: 'La factura A-7 está Rechazada.' } }, LINES),
    ).toEqual(['La factura A-7 está Rechazada.']);
    expect(failureMessages({ status: 0, body: null }, LINES)).toEqual([NO_RESPONSE_MESSAGE]);
  });
});

describe('supplierRequestsMachine', () => {
  it('sends nothing while a selected request has no payment date, and names it', () => {
    const actor = createActor(supplierRequestsMachine).start();
    actor.send({ type: 'requests.authorize', lines: [LINES[0]!, { ...LINES[1]!, paymentDate: '' }] });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context.missingDates).toEqual([8]);
  });

  it('authorizes each line with its own date under one key, then removes the rows as Autorizada', async () => {
    const sent: AuthorizeRequestsInput[] = [];
    const removed: unknown[] = [];
    const actor = createActor(
      supplierRequestsMachine.provide({
        actors: {
          authorizeRequests: fromPromise<AuthorizeRejectResponse, AuthorizeRequestsInput>(
            async ({ input }) => {
              sent.push(input);
              return ANSWER;
            },
          ),
        },
        actions: { removeRows: (_, params) => void removed.push(params) },
      }),
    ).start();
    actor.send({ type: 'requests.authorize', lines: LINES });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(actor.getSnapshot().value).toBe('answered');
    expect(sent[0]?.lines).toEqual([
      { invoiceId: 7, paymentDate: '2030-01-31' },
      { invoiceId: 8, paymentDate: '2030-02-28' },
    ]);
    expect(removed).toEqual([{ invoiceIds: [7, 8], status: InvoiceStatus.APPROVED }]);
    expect(actor.getSnapshot().context.messages).toEqual(['Listo', 'Fechas']);
  });

  it('rejects with the trimmed reason only after the confirmation', async () => {
    const sent: RejectRequestsInput[] = [];
    const actor = createActor(
      supplierRequestsMachine.provide({
        actors: {
          rejectRequests: fromPromise<AuthorizeRejectResponse, RejectRequestsInput>(async ({ input }) => {
            sent.push(input);
            return ANSWER;
          }),
        },
      }),
    ).start();
    actor.send({ type: 'requests.reject', lines: LINES });
    expect(actor.getSnapshot().value).toBe('confirmingReject');
    expect(sent).toEqual([]);
    actor.send({ type: 'reject.confirm', reason: '  Precio distinto  ' });
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(sent[0]).toMatchObject({ invoiceIds: [7, 8], reason: 'Precio distinto' });
  });
});
