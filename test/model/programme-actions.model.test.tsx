import { randomUUID } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { expect } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import { ISO_DATE_FORMAT } from '../../src/domain/calendar-date';
import { NO_RESPONSE_MESSAGE } from '../../src/domain/call-failure';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { PROGRAMME_OUTCOMES } from '../../src/views/operator/programmes/programmes-page';
import { testAuthenticity } from '../support/demo-authority';
import { addCompanyWithUser, advanceTo, importInvoice, requestAdvance } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { callServer, forwardToServer, testApp } from './harness/test-server';
import { world } from './harness/world';
import { ACTION_REFUSED, programmeActionsModel } from './programme-actions.model';

// The programmes page as an aprobador with tesorería's role sees it, against the real server behind MSW. Each
// path gets two fresh corporates with a limit pending approval (another operator proposed them) and, when it
// opens «Registrar cobro», an invoice of its own advanced and disbursed on the demo programme. The approval and
// the collection are held at the network so every outcome is the path's: passed to the server, its answer lost
// after the server acted (the retry sends the same Idempotency-Key and gets the first answer), refused by a
// concurrent change made through the API, or refused at a field. In process only: it reaches the database.

const DEMO_PROGRAMME = /Grupo Altamira/;
const APPROVE = '/api/operator/programmes/:id/approve/';
const COLLECTIONS = '/api/operator/collections/';

interface Pending {
  programmeId: number;
  name: string;
}

interface Ctx {
  /** Corporates whose limit waits for approval, not yet approved by this path. */
  pending: Pending[];
  /** The programme of the approval under way (or last made). */
  approving: Pending | null;
  invoice: { id: number; folio: string } | null;
  clave: string;
  intent: 'approve' | 'collect' | null;
  fault: number | null;
  approve: ReturnType<typeof gateEndpoint>;
  collect: ReturnType<typeof gateEndpoint>;
  /** Idempotency-Key of each request of the intent under way, in order. */
  keys: string[];
}

interface Sessions {
  analista: string;
  otherAprobador: string;
  otherTreasurer: string;
  operator: { access: string; refresh: string };
}

let sessions: Sessions | null = null;

async function theSessions(): Promise<Sessions> {
  if (sessions) return sessions;
  const analista = await world.operatorSession(['analista']);
  const otherAprobador = await world.operatorSession(['aprobador']);
  const otherTreasurer = await world.operatorSession(['tesoreria']);
  const operator = await world.operatorSession(['aprobador', 'tesoreria']);
  sessions = {
    analista: analista.access,
    otherAprobador: otherAprobador.access,
    otherTreasurer: otherTreasurer.access,
    operator: { access: operator.access, refresh: operator.refresh },
  };
  return sessions;
}

const today = () => businessDate(new Date());
const dayFromToday = (days: number) => dayjs(today()).add(days, 'day').format(ISO_DATE_FORMAT);
const bearer = (access: string) => ({ authorization: `Bearer ${access}` });

/** A fresh corporate whose first limit an analista proposed. */
async function pendingProgramme(analista: string): Promise<Pending> {
  const { db } = testApp().database;
  const tag = randomUUID().slice(0, 8);
  const name = `Corporativo por aprobar ${tag}`;
  const { companyId } = await addCompanyWithUser(db, { rfc: null, name, username: `por.aprobar.${tag}` });
  await db.updateTable('companies').set({ is_corporate: true }).where('id', '=', companyId).execute();
  const answer = await callServer('POST', '/api/operator/programmes/', {
    headers: bearer(analista),
    body: {
      corporate_id: companyId,
      limit: '1000000.00',
      starts_on: dayFromToday(-1),
      ends_on: dayFromToday(365),
    },
  });
  expect(answer.status).toBe(201);
  return { programmeId: (answer.body as { id: number }).id, name };
}

/** An invoice of the demo programme, advanced and disbursed: its corporate's payment is to be recorded. */
async function collectibleInvoice(): Promise<{ id: number; folio: string }> {
  const { db } = testApp().database;
  const folio = `M${randomUUID().slice(0, 8)}`;
  const id = await importInvoice(db, { today: today(), folio });
  await advanceTo(db, id, 'approved', dayFromToday(30));
  await requestAdvance(db, id);
  // Forced past the desk's checks: they are the desk's models' subject, not this one's.
  await disburseInvoice(db, String(id), {
    account: 'pruebas',
    today: today(),
    force: true,
    authenticity: testAuthenticity(db),
  });
  return { id, folio };
}

async function programmeState(programmeId: number): Promise<string> {
  const row = await testApp()
    .database.db.selectFrom('credit_programmes')
    .select('state')
    .where('id', '=', programmeId)
    .executeTakeFirstOrThrow();
  return row.state;
}

/** A refusal of a collection without fields (faked: no rule of the server answers one through this page). */
const COLLECTION_REFUSED = { detail: 'La factura ya no está por cobrar.' };

/** A one-click gesture refused at a field (faked: no rule of the server does it to an approval today). */
const APPROVAL_AT_FIELD = { programme: ['El programa cambió: revisa la propuesta antes de aprobar.'] };

/** The page's notice (what came of the last gesture), found by its close button. */
async function notice(role: 'status' | 'alert'): Promise<HTMLElement> {
  const close = await screen.findByRole('button', { name: 'Cerrar aviso' }, SERVER_WAIT);
  // The notice and its «Cerrar aviso» stand together (the shared OutcomeCallout).
  const callout = close.parentElement?.querySelector(`[role="${role}"]`);
  if (!(callout instanceof HTMLElement)) throw new Error(`the notice is not a ${role}`);
  return callout;
}

async function collectionsWith(clave: string): Promise<number> {
  const rows = await testApp()
    .database.db.selectFrom('collections')
    .select('id')
    .where('clave_rastreo', '=', clave)
    .execute();
  return rows.length;
}

const gateOf = (ctx: Ctx) => (ctx.intent === 'collect' ? ctx.collect : ctx.approve);

async function recordKey(ctx: Ctx): Promise<void> {
  const request = await gateOf(ctx).waitForRequest();
  ctx.keys.push(request.headers.get('idempotency-key') ?? '');
  expect(ctx.keys.at(-1)).toMatch(/^[0-9a-f-]{36}$/);
}

async function programmesTable(): Promise<HTMLElement> {
  return screen.findByRole('table', { name: 'Programas de crédito' }, SERVER_WAIT);
}

async function pendingRow(name: string): Promise<HTMLElement> {
  const table = await screen.findByRole('table', { name: 'Límites pendientes de aprobación' }, SERVER_WAIT);
  return within(table).findByRole('row', { name: new RegExp(name) }, SERVER_WAIT);
}

async function dialog(): Promise<HTMLElement> {
  return screen.findByRole('dialog', {}, SERVER_WAIT);
}

/** The dialog of a lost answer, named by its gesture (the form's own dialog may still be closing). */
async function answerLostDialog(ctx: Ctx): Promise<HTMLElement> {
  const name = ctx.intent === 'collect' ? 'Registrar cobro' : 'Aprobar';
  return screen.findByRole('dialog', { name }, SERVER_WAIT);
}

/** Nothing the path did was done twice: one approval per programme, one collection per clave. */
async function atMostOnce(ctx: Ctx): Promise<void> {
  expect(await collectionsWith(ctx.clave)).toBeLessThanOrEqual(1);
  if (ctx.intent !== null) expect(new Set(ctx.keys).size).toBeLessThanOrEqual(1);
}

defineModelTests<Ctx>(programmeActionsModel, {
  setup: async () => {
    const { analista, operator } = await theSessions();
    localStorage.setItem(ACCESS_TOKEN_KEY, operator.access);
    localStorage.setItem(REFRESH_TOKEN_KEY, operator.refresh);
    setUser({ isAuthenticated: true, operatorRoles: ['aprobador', 'tesoreria'] });
    return {
      pending: [await pendingProgramme(analista), await pendingProgramme(analista)],
      approving: null,
      invoice: null,
      clave: `COBRO${randomUUID().slice(0, 8).toUpperCase()}`,
      intent: null,
      fault: null,
      approve: gateEndpoint('post', APPROVE),
      collect: gateEndpoint('post', COLLECTIONS),
      keys: [],
    };
  },
  render: () => {
    renderApp('/operacion/programas/');
  },
  states: {
    '#programme-actions.ready.idle': async ({ ctx }) => {
      await programmesTable();
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      expect(screen.queryByRole('button', { name: 'Cerrar aviso' })).toBeNull();
      await atMostOnce(ctx);
    },
    '#programme-actions.ready.succeeded': async ({ ctx }) => {
      const shown = await notice('status');
      if (ctx.intent === 'approve' && ctx.approving) {
        expect(shown.textContent).toContain(PROGRAMME_OUTCOMES.approve(ctx.approving.name));
        expect(await programmeState(ctx.approving.programmeId)).toBe('activo');
        // The list is read again: the limit no longer waits.
        const list = await programmesTable();
        await waitFor(() => {
          const row = within(list).getByRole('row', { name: new RegExp(ctx.approving?.name ?? '') });
          expect(within(row).getByText('Activo')).toBeTruthy();
        }, SERVER_WAIT);
      } else {
        expect(shown.textContent).toMatch(/^Pago registrado: se liberaron/);
        expect(await collectionsWith(ctx.clave)).toBe(1);
      }
      expect(new Set(ctx.keys).size).toBe(1);
      expect(screen.queryByRole('dialog')).toBeNull();
    },
    '#programme-actions.ready.refused': async ({ ctx }) => {
      const shown = await notice('alert');
      expect(screen.queryByRole('dialog')).toBeNull();
      if (ctx.intent === 'collect') {
        expect(shown.textContent).toContain(COLLECTION_REFUSED.detail);
        expect(await collectionsWith(ctx.clave)).toBe(0);
      } else {
        // The server's own words: the other aprobador's approval stands, once.
        expect(shown.textContent).toContain(ACTION_REFUSED.body.detail);
        expect(await programmeState(ctx.approving?.programmeId ?? 0)).toBe('activo');
      }
    },
    '#programme-actions.editing': async ({ ctx }) => {
      const open = await dialog();
      if (ctx.intent === 'approve') {
        // A one-click gesture refused at a field (no server rule does it today): the page asks again.
        expect(open.textContent).toContain('Aprobar');
        expect(within(open).getByRole('alert').textContent).toContain(APPROVAL_AT_FIELD.programme[0]);
        expect(within(open).getByRole('button', { name: 'Cancelar' })).toBeTruthy();
        return;
      }
      expect(within(open).getByText(/Registrar cobro de la factura/)).toBeTruthy();
      const amount = within(open).getByLabelText('Monto pagado (MXN)') as HTMLInputElement;
      if (ctx.fault === 400) {
        // The server's own words at the field, from the machine's failure; the form keeps what was typed.
        expect(
          await within(open).findByText(/^El monto excede lo que falta por cobrar/, {}, SERVER_WAIT),
        ).toBeTruthy();
        expect(amount.getAttribute('aria-invalid')).toBe('true');
        expect((within(open).getByLabelText('Clave de rastreo del pago') as HTMLInputElement).value).toBe(
          ctx.clave,
        );
        expect(await collectionsWith(ctx.clave)).toBe(0);
      } else {
        expect(amount.value).toMatch(/^\d+\.\d{2}$/);
      }
    },
    '#programme-actions.acting': async ({ ctx }) => {
      if (ctx.intent === 'collect') {
        const open = await dialog();
        const send = within(open)
          .getAllByRole('button')
          .find((b) => b.textContent?.includes('Registrar cobro'));
        await waitFor(() => expect((send as HTMLButtonElement).disabled).toBe(true), SERVER_WAIT);
      } else {
        await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
        const row = await pendingRow(ctx.approving?.name ?? '');
        await waitFor(
          () => expect((within(row).getByRole('button') as HTMLButtonElement).disabled).toBe(true),
          SERVER_WAIT,
        );
      }
      // A retry after a lost answer sends the key of the first request.
      expect(ctx.keys.length).toBeGreaterThan(0);
      if (ctx.fault === 0) expect(new Set(ctx.keys).size).toBe(1);
    },
    '#programme-actions.answerLost': async ({ ctx }) => {
      const open = await answerLostDialog(ctx);
      expect(within(open).getByRole('alert').textContent).toContain(NO_RESPONSE_MESSAGE);
      expect(within(open).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      expect(within(open).getByRole('button', { name: 'Cancelar' })).toBeTruthy();
      // The request reached the server before its answer was lost.
      if (ctx.intent === 'collect') expect(await collectionsWith(ctx.clave)).toBe(1);
      else expect(await programmeState(ctx.approving?.programmeId ?? 0)).toBe('activo');
    },
  },
  events: {
    'action.run': async ({ ctx, user }) => {
      const target = ctx.pending.shift();
      if (!target) throw new Error('no pending programme left');
      ctx.approving = target;
      ctx.intent = 'approve';
      ctx.fault = null;
      ctx.keys = [];
      const row = await pendingRow(target.name);
      await user.click(within(row).getByRole('button', { name: 'Aprobar' }));
      await recordKey(ctx);
    },
    'action.open': async ({ ctx, user }) => {
      ctx.invoice = await collectibleInvoice();
      ctx.intent = 'collect';
      ctx.fault = null;
      ctx.keys = [];
      const demo = await within(await programmesTable()).findByRole(
        'row',
        { name: DEMO_PROGRAMME },
        SERVER_WAIT,
      );
      await user.click(within(demo).getByRole('button', { name: 'Ver movimientos' }));
      const collectible = await screen.findByRole(
        'table',
        { name: 'Por cobrar al corporativo' },
        SERVER_WAIT,
      );
      const folio = ctx.invoice.folio;
      await user.click(
        await within(collectible).findByRole(
          'button',
          { name: new RegExp(`^Registrar cobro de la factura .*${folio}$`) },
          SERVER_WAIT,
        ),
      );
    },
    'action.submit': async ({ ctx, user }) => {
      const open = await dialog();
      if (ctx.intent === 'approve') {
        await user.click(within(open).getByRole('button', { name: 'Aprobar' }));
        await recordKey(ctx);
        return;
      }
      const clave = within(open).getByLabelText('Clave de rastreo del pago');
      await user.clear(clave);
      await user.type(clave, ctx.clave);
      await user.click(within(open).getByRole('button', { name: 'Registrar cobro' }));
      await recordKey(ctx);
      expect(ctx.collect.bodies.at(-1)).toMatchObject({
        invoice_id: ctx.invoice?.id,
        clave_rastreo: ctx.clave,
      });
    },
    'xstate.done.actor.act': async ({ ctx }) => {
      await gateOf(ctx).pass();
    },
    'xstate.error.actor.act': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      ctx.fault = error.status;
      const gate = gateOf(ctx);
      if (error.status === 0) {
        // The server acts, but its answer never reaches the browser.
        const answer = await forwardToServer(await gate.waitForRequest());
        expect(answer.status).toBeLessThan(300);
        await gate.networkError();
      } else if (error.status === 400 && ctx.intent === 'collect') {
        // Another treasurer recorded the whole payment meanwhile: nothing remains, the amount is refused.
        const sent = ctx.collect.bodies.at(-1) as { invoice_id: number; amount: string; fecha: string };
        const first = await callServer('POST', COLLECTIONS, {
          headers: { ...bearer((await theSessions()).otherTreasurer), 'idempotency-key': randomUUID() },
          body: { ...sent, amount: '99999999.00', clave_rastreo: `OTRO${ctx.clave}`, sobrepago: true },
        });
        expect(first.status, JSON.stringify(first.body)).toBeLessThan(300);
        await gate.pass();
      } else if (error.status === 400) {
        await gate.respond(400, APPROVAL_AT_FIELD);
      } else if (ctx.intent === 'approve') {
        // Another aprobador approved the limit first (another key): nothing is pending any more.
        const first = await callServer(
          'POST',
          `/api/operator/programmes/${ctx.approving?.programmeId}/approve/`,
          {
            headers: { ...bearer((await theSessions()).otherAprobador), 'idempotency-key': randomUUID() },
            body: {},
          },
        );
        expect(first.status).toBe(200);
        await gate.pass();
      } else {
        await gate.respond(409, COLLECTION_REFUSED);
      }
    },
    'action.retry': async ({ ctx, user }) => {
      await user.click(within(await answerLostDialog(ctx)).getByRole('button', { name: 'Reintentar' }));
      await recordKey(ctx);
    },
    'action.cancel': async ({ user }) => {
      await user.click(within(await dialog()).getByRole('button', { name: 'Cancelar' }));
    },
    'outcome.dismiss': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: 'Cerrar aviso' }, SERVER_WAIT));
    },
  },
});
