import { screen, waitFor, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { createActor } from 'xstate';
import { businessDate } from '../../server/http/business-date';
import { displayDate } from '../../src/domain/calendar-date';
import {
  PAYMENT_DATE_REQUIRED,
  PAYMENT_DATE_TOO_FAR,
  PAYMENT_DATES_OUT_OF_RANGE_MESSAGE,
} from '../../src/domain/payment-date';
import { PRE_AUTHORIZATION_LIFETIME_MS, type PreAuthorizedInvoice } from '../../src/domain/pre-authorization';
import { preAuthorizationMachine } from '../../src/machines/pre-authorization.machine';
import { readPreAuthorization, savePreAuthorization } from '../../src/stores/pre-authorization.store';
import { SELECT_ALL_TEXT } from '../../src/views/invoices/invoice-table';
import { PAYMENT_DATE_HEADER, QUOTE_TEXT } from '../../src/views/quotation/pre-authorization-page';
import { SERVER_WAIT } from '../support/server-wait';
import { signInCorporate } from './corporate-helpers';
import { defineModelTests } from './harness/define-model-tests';
import { renderApp } from './harness/render-app';
import { type WorldInvoice, world } from './harness/world';
import { plusDays } from './invoice-lifecycle.model';
import { INVOICE_A, preAuthorizationModel, TOO_FAR_DATE, VALID_DATE } from './pre-authorization.model';

/** Days before today the two invoices of a path were issued. */
const ISSUED_DAYS_AGO = 3;

interface Real {
  id: number;
  uuid: string;
  folio: string;
  emission: string;
}

interface Ctx {
  tag: string;
  a: Real;
  b: Real;
  /** The real dates the symbolic VALID_DATE and TOO_FAR_DATE stand for (for invoice A). */
  valid: string;
  tooFar: string;
}

function realInvoice(invoice: WorldInvoice): Real {
  return { id: invoice.id, uuid: invoice.uuid, folio: invoice.label, emission: invoice.emission };
}

function checkbox(real: Real): HTMLInputElement {
  return screen.getByLabelText(`Seleccionar factura ${real.uuid}`) as HTMLInputElement;
}

function dateField(real: Real): HTMLInputElement {
  return screen.getByLabelText(`${PAYMENT_DATE_HEADER} ${real.folio}`) as HTMLInputElement;
}

function quoteButton(): HTMLButtonElement {
  return screen.getByRole('button', { name: QUOTE_TEXT }) as HTMLButtonElement;
}

/** Symbolic date of the model → what the field shows for invoice A. */
function shownDate(ctx: Ctx, symbolic: string | null): string {
  if (symbolic === VALID_DATE) return displayDate(ctx.valid);
  if (symbolic === TOO_FAR_DATE) return displayDate(ctx.tooFar);
  return '';
}

function real(ctx: Ctx, id: number): Real {
  return id === INVOICE_A.id ? ctx.a : ctx.b;
}

async function typeDate(user: UserEvent, field: HTMLInputElement, iso: string): Promise<void> {
  await user.clear(field);
  await user.type(field, displayDate(iso));
  await user.keyboard('{Escape}');
}

async function pageReady(ctx: Ctx): Promise<void> {
  await screen.findByRole('heading', { level: 1, name: 'Pre-autorización' }, SERVER_WAIT);
  await waitFor(() => expect(checkbox(ctx.a)).toBeTruthy(), SERVER_WAIT);
}

defineModelTests<Ctx>(preAuthorizationModel, {
  setup: async () => {
    // The 5-minute timer is the machine's own (XState delay on setTimeout); fake timers that still follow
    // real time let a path jump those minutes at once.
    vi.useFakeTimers({ shouldAdvanceTime: true, toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    await signInCorporate();
    const tag = `preaut-${crypto.randomUUID().slice(0, 8)}`;
    const today = businessDate(new Date());
    const [a, b] = [
      await world.importInvoice({ description: `${tag} uno`, daysAgo: ISSUED_DAYS_AGO }),
      await world.importInvoice({ description: `${tag} dos`, daysAgo: ISSUED_DAYS_AGO }),
    ].map(realInvoice);
    return {
      tag,
      a: a as Real,
      b: b as Real,
      valid: plusDays(today, 30),
      tooFar: plusDays((a as Real).emission, 151),
    };
  },
  render: (ctx) => {
    renderApp(`/dashboard/pre-autorizacion/?search=${ctx.tag}`);
  },
  teardown: () => {
    vi.useRealTimers();
  },
  states: {
    '#pre-authorization.empty': async ({ ctx }) => {
      await pageReady(ctx);
      await waitFor(() => expect(checkbox(ctx.a).checked).toBe(false), SERVER_WAIT);
      expect(checkbox(ctx.b).checked).toBe(false);
      expect(quoteButton().disabled).toBe(true);
      expect(dateField(ctx.a).disabled).toBe(true);
      expect(readPreAuthorization().invoices).toEqual([]);
    },
    '#pre-authorization.selecting': async ({ ctx, state }) => {
      await pageReady(ctx);
      const { invoices, showErrors } = state.context as {
        invoices: PreAuthorizedInvoice[];
        showErrors: boolean;
      };
      const selected = new Set(invoices.map((item) => real(ctx, item.id).id));
      await waitFor(() => {
        expect(checkbox(ctx.a).checked).toBe(selected.has(ctx.a.id));
        expect(checkbox(ctx.b).checked).toBe(selected.has(ctx.b.id));
      }, SERVER_WAIT);
      expect(quoteButton().disabled).toBe(false);
      const a = invoices.find((item) => item.id === INVOICE_A.id);
      if (a) {
        await waitFor(() => expect(dateField(ctx.a).value).toBe(shownDate(ctx, a.paymentDate)), SERVER_WAIT);
        const row = dateField(ctx.a).closest('td') as HTMLElement;
        if (a.paymentDate === TOO_FAR_DATE) expect(within(row).getByText(PAYMENT_DATE_TOO_FAR)).toBeTruthy();
        else expect(within(row).queryByText(PAYMENT_DATE_TOO_FAR)).toBeNull();
      }
      // 'Requerido' shows under an empty field once 'Cotizar' was pressed.
      const bRow = dateField(ctx.b).closest('td') as HTMLElement;
      const bSelected = invoices.some((item) => item.id !== INVOICE_A.id);
      expect(within(bRow).queryAllByText(PAYMENT_DATE_REQUIRED).length).toBe(showErrors && bSelected ? 1 : 0);
      // The work is saved with every change: a reload now finds it.
      const saved = readPreAuthorization().invoices;
      expect(saved.map((item) => item.id).sort()).toEqual([...selected].sort());
    },
    '#pre-authorization.blocked': async ({ ctx }) => {
      const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
      expect(dialog.textContent).toContain(PAYMENT_DATES_OUT_OF_RANGE_MESSAGE);
      // The offending date is cleared, on screen and in the saved work.
      expect(dateField(ctx.a).value).toBe('');
      expect(readPreAuthorization().invoices.find((item) => item.id === ctx.a.id)?.paymentDate).toBeNull();
    },
    '#pre-authorization.quoting': async ({ ctx }) => {
      await screen.findByRole('heading', { level: 1, name: 'Cotización' }, SERVER_WAIT);
      const table = await screen.findByRole('table', { name: 'Cotización por factura' }, SERVER_WAIT);
      expect(within(table).getByText(ctx.a.folio)).toBeTruthy();
      expect(readPreAuthorization().invoices).toEqual([
        { id: ctx.a.id, folio: ctx.a.folio, emissionDate: ctx.a.emission, paymentDate: ctx.valid },
      ]);
    },
  },
  events: {
    'invoice.toggle': async ({ ctx, user }) => {
      await pageReady(ctx);
      await user.click(checkbox(ctx.a));
    },
    'invoice.toggleAll': async ({ ctx, user }) => {
      await pageReady(ctx);
      await user.click(screen.getByRole('button', { name: SELECT_ALL_TEXT }));
    },
    'date.change': async ({ ctx, event, user }) => {
      const { paymentDate } = event as unknown as { paymentDate: string };
      await typeDate(user, dateField(ctx.a), paymentDate === VALID_DATE ? ctx.valid : ctx.tooFar);
    },
    quote: async ({ user }) => {
      await user.click(quoteButton());
    },
    'dialog.close': async ({ user }) => {
      const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
      await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    },
    'xstate.after.lifetime.pre-authorization.selecting': async () => {
      await vi.advanceTimersByTimeAsync(PRE_AUTHORIZATION_LIFETIME_MS);
    },
  },
});

// Spec §9 and issue 13: the work outlives a reload for 5 minutes after its last change, not longer. The clock
// is vi's: reading the store at 4 and at 6 minutes, then starting the page's machine from what it read.
describe('pre-authorization reload (fake clock)', () => {
  const work = {
    invoices: [{ id: 7, folio: 'A-7', emissionDate: '2026-01-02', paymentDate: '2026-02-20' }],
  };

  function reloadAfter(ms: number) {
    vi.useFakeTimers({ now: new Date('2026-01-10T12:00:00Z') });
    try {
      savePreAuthorization({ ...work, savedAt: Date.now() });
      vi.advanceTimersByTime(ms);
      const actor = createActor(preAuthorizationMachine, { input: readPreAuthorization() }).start();
      const snapshot = actor.getSnapshot();
      actor.stop();
      return snapshot;
    } finally {
      vi.useRealTimers();
      localStorage.clear();
    }
  }

  it('keeps the selection and dates at 4 minutes', () => {
    const snapshot = reloadAfter(4 * 60_000);
    expect(snapshot.value).toBe('selecting');
    expect(snapshot.context.invoices).toEqual(work.invoices);
  });

  it('is empty at 6 minutes, and the store is cleared', () => {
    const snapshot = reloadAfter(6 * 60_000);
    expect(snapshot.value).toBe('empty');
    expect(snapshot.context.invoices).toEqual([]);
  });

  it('drops the work when the 5 minutes run out on an open page', () => {
    vi.useFakeTimers({ now: new Date('2026-01-10T12:00:00Z') });
    try {
      savePreAuthorization({ ...work, savedAt: Date.now() });
      const actor = createActor(
        preAuthorizationMachine.provide({ actions: { persist: (_, saved) => savePreAuthorization(saved) } }),
        { input: readPreAuthorization() },
      ).start();
      vi.advanceTimersByTime(4 * 60_000);
      expect(actor.getSnapshot().value).toBe('selecting');
      vi.advanceTimersByTime(2 * 60_000);
      expect(actor.getSnapshot().value).toBe('empty');
      expect(readPreAuthorization().invoices).toEqual([]);
      actor.stop();
    } finally {
      vi.useRealTimers();
      localStorage.clear();
    }
  });
});
