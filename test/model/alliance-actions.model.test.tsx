import { screen, waitFor, within } from '@testing-library/react';
import type userEvent from '@testing-library/user-event';
import { expect } from 'vitest';
import { ALLIANCE_MESSAGES } from '../../src/domain/alliance-terms';
import { ACTION_FAILED, NO_RESPONSE_MESSAGE } from '../../src/domain/call-failure';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { SERVER_WAIT } from '../support/server-wait';
import { allianceActionsModel, MODEL_TERMS, NOT_CORPORATE_BODY } from './alliance-actions.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { forwardToServer } from './harness/test-server';
import { world } from './harness/world';

interface Ctx {
  rfc: string;
  save: ReturnType<typeof gateEndpoint>;
  /** The last refusal's status (null after a submit). */
  fault: number | null;
  /** The Idempotency-Key of each save of the current intent, in order. */
  keys: string[];
}

let sequence = 0;
/** A fresh moral-person RFC per path, so its alliance is new and first in the list. */
function freshRfc(): string {
  sequence += 1;
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const tag = Number(`${process.pid}${sequence}`);
  const a = letters[tag % letters.length];
  const b = letters[Math.floor(tag / letters.length) % letters.length];
  return `A${a}${b}2002${String(10 + (sequence % 18)).padStart(2, '0')}${b}${a}2`;
}

const dialog = () => screen.findByRole('dialog', {}, SERVER_WAIT);

async function expectNoDialog(): Promise<void> {
  await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
}

async function recordKey(ctx: Ctx): Promise<void> {
  const request = await ctx.save.waitForRequest();
  ctx.keys.push(request.headers.get('idempotency-key') ?? '');
  expect(ctx.keys.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
}

async function type(user: ReturnType<typeof userEvent.setup>, field: HTMLElement, text: string) {
  await user.clear(field);
  await user.type(field, text);
}

defineModelTests<Ctx>(allianceActionsModel, {
  setup: async () => {
    const session = await world.operatorSession(['analista']);
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    localStorage.setItem(REFRESH_TOKEN_KEY, session.refresh);
    setUser({ isAuthenticated: true, operatorRoles: ['analista'] });
    return { rfc: freshRfc(), save: gateEndpoint('post', '/api/operator/alliances/'), fault: null, keys: [] };
  },
  render: () => {
    renderApp('/operacion/alianzas/');
  },
  states: {
    '#alliance-actions.ready.idle': async () => {
      expect(await screen.findByRole('table', { name: 'Alianzas' }, SERVER_WAIT)).toBeTruthy();
      await expectNoDialog();
      expect(screen.queryByRole('alert')).toBeNull();
    },
    '#alliance-actions.ready.succeeded': async ({ ctx }) => {
      await expectNoDialog();
      const table = await screen.findByRole('table', { name: 'Alianzas' }, SERVER_WAIT);
      // The list was read again: the new alliance, at its rate before and with IVA.
      const row = await waitFor(() => {
        const found = within(table)
          .getAllByRole('row')
          .find((candidate) => candidate.textContent?.includes(ctx.rfc));
        expect(found).toBeTruthy();
        return found as HTMLElement;
      }, SERVER_WAIT);
      expect(row.textContent).toContain('15.00 %');
      expect(row.textContent).toContain('17.40 %');
      const notice = await screen.findByRole('status', {}, SERVER_WAIT);
      expect(notice.textContent).toContain(`Alianza guardada: ${ctx.rfc} con `);
      // A retry after a lost answer sent the intent's one key again.
      expect(new Set(ctx.keys).size).toBe(1);
    },
    '#alliance-actions.ready.refused': async () => {
      await expectNoDialog();
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(ACTION_FAILED);
      expect(screen.getByRole('button', { name: 'Cerrar aviso' })).toBeTruthy();
    },
    '#alliance-actions.editing': async ({ ctx }) => {
      const open = await dialog();
      const save = within(open).getByRole('button', { name: 'Guardar alianza' }) as HTMLButtonElement;
      await waitFor(() => expect(save.disabled).toBe(false), SERVER_WAIT);
      if (ctx.fault === 400) {
        // The server's message at its field; the typed terms are still there.
        expect(within(open).getByText(ALLIANCE_MESSAGES.notCorporate)).toBeTruthy();
        expect((within(open).getByLabelText(/RFC del proveedor/) as HTMLInputElement).value).toBe(ctx.rfc);
      } else {
        expect(within(open).queryByRole('alert')).toBeNull();
      }
    },
    '#alliance-actions.acting': async () => {
      const open = await dialog();
      await waitFor(
        () =>
          expect(
            (within(open).getByRole('button', { name: /Guardar alianza/ }) as HTMLButtonElement).disabled,
          ).toBe(true),
        SERVER_WAIT,
      );
      expect((within(open).getByRole('button', { name: 'Cancelar' }) as HTMLButtonElement).disabled).toBe(
        true,
      );
    },
    '#alliance-actions.answerLost': async ({ ctx }) => {
      const open = await dialog();
      const alert = await within(open).findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(NO_RESPONSE_MESSAGE);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      expect(new Set(ctx.keys).size).toBe(1);
    },
  },
  events: {
    'action.open': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: 'Nueva alianza' }, SERVER_WAIT));
      await dialog();
    },
    'action.submit': async ({ ctx, user }) => {
      const open = await dialog();
      const corporate = within(open).getByLabelText('Corporativo') as HTMLSelectElement;
      await waitFor(() => expect(corporate.disabled).toBe(false), SERVER_WAIT);
      await user.selectOptions(corporate, (corporate.options[1] as HTMLOptionElement).value);
      await type(user, within(open).getByLabelText(/RFC del proveedor/), ctx.rfc);
      await type(user, within(open).getByLabelText(/Tasa anual/), MODEL_TERMS.annual_rate);
      await type(user, within(open).getByLabelText(/Días máximos/), String(MODEL_TERMS.max_days));
      ctx.fault = null;
      ctx.keys = [];
      await user.click(within(open).getByRole('button', { name: 'Guardar alianza' }));
      await recordKey(ctx);
      expect(ctx.save.bodies.at(-1)).toMatchObject({ provider_rfc: ctx.rfc, max_days: MODEL_TERMS.max_days });
    },
    'xstate.done.actor.act': async ({ ctx }) => {
      await ctx.save.pass();
    },
    'xstate.error.actor.act': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      ctx.fault = error.status;
      if (error.status === 0) {
        // The server saves, but its answer never reaches the browser.
        const answer = await forwardToServer(await ctx.save.waitForRequest());
        expect(answer.status).toBeLessThan(300);
        await ctx.save.networkError();
      } else if (error.status === 400) {
        await ctx.save.respond(400, NOT_CORPORATE_BODY);
      } else {
        await ctx.save.respond(500, { detail: 'Error interno' });
      }
    },
    'action.retry': async ({ ctx, user }) => {
      const alert = await within(await dialog()).findByRole('alert', {}, SERVER_WAIT);
      await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
      await recordKey(ctx);
    },
    'action.cancel': async ({ user }) => {
      await user.click(within(await dialog()).getByRole('button', { name: 'Cancelar' }));
    },
    'outcome.dismiss': async ({ user }) => {
      // The notice of a save (status) or of a refusal (alert).
      await user.click(await screen.findByRole('button', { name: 'Cerrar aviso' }, SERVER_WAIT));
    },
  },
});
