import { describe, expect, it } from 'vitest';
import { createActor } from 'xstate';
import { PAYMENT_DATE_NOT_AFTER_TODAY, preAuthorizationDateError } from '../domain/payment-date';
import { preAuthorizationMachine } from './pre-authorization.machine';

const INVOICE = { id: 1, folio: 'A-1', emissionDate: '2026-01-01' } as const;

function started() {
  let quoted = false;
  const actor = createActor(
    preAuthorizationMachine.provide({
      actions: {
        goToQuotation: () => {
          quoted = true;
        },
      },
    }),
    { input: { invoices: [], savedAt: 0, today: '2026-03-01' } },
  ).start();
  actor.send({ type: 'invoice.toggle', invoice: INVOICE });
  return { actor, quoted: () => quoted };
}

describe('preAuthorizationMachine and a past payment date (issue 33)', () => {
  it('keeps the buyer on the page with the field showing the server text, instead of quoting', () => {
    const { actor, quoted } = started();
    actor.send({ type: 'date.change', invoiceId: INVOICE.id, paymentDate: '2026-02-27' });
    actor.send({ type: 'quote' });
    const { context } = actor.getSnapshot();
    expect(actor.getSnapshot().value).toBe('selecting');
    expect(quoted()).toBe(false);
    expect(context.showErrors).toBe(true);
    const [item] = context.invoices;
    expect(item && preAuthorizationDateError(item.emissionDate, item.paymentDate, context.today)).toBe(
      PAYMENT_DATE_NOT_AFTER_TODAY,
    );
    actor.stop();
  });

  it('quotes once the date is after today', () => {
    const { actor, quoted } = started();
    actor.send({ type: 'date.change', invoiceId: INVOICE.id, paymentDate: '2026-03-02' });
    actor.send({ type: 'quote' });
    expect(actor.getSnapshot().value).toBe('quoting');
    expect(quoted()).toBe(true);
    actor.stop();
  });
});
