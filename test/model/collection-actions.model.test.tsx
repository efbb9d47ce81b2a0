import { randomUUID } from 'node:crypto';
import { screen, waitFor, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { expect } from 'vitest';
import { businessDate } from '../../server/http/business-date';
import { disburseInvoice } from '../../server/modules/control-desk/disbursement.service';
import { bankStatementCsv } from '../../src/domain/bank-statement';
import { ISO_DATE_FORMAT } from '../../src/domain/calendar-date';
import { ACTION_FAILED, NO_RESPONSE_MESSAGE } from '../../src/domain/call-failure';
import { testAuthenticity } from '../support/demo-authority';
import { advanceTo, importInvoice, requestAdvance } from '../support/pronto-pago';
import { SERVER_WAIT } from '../support/server-wait';
import { collectionActionsModel } from './collection-actions.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { forwardToServer, TEST_ORIGIN, testApp } from './harness/test-server';
import { world } from './harness/world';
import { openOperatorScreen, type ScreenOperator } from './operator-screens';

// Each path works the unidentified-payment queue of /operacion/cobranza/ against the real server behind MSW (in
// process: it disburses its invoice through the desk service). Its world: an invoice of its own advanced and
// disbursed, and, through the API, a bank statement
// whose lines name no batch and no buyer (so they queue as unidentified), small ones for «Asignar» and large ones
// proposed by another operator for «Aprobar»; the model's operator (tesorería and aprobador) clicks them.

const QUEUE = '/api/operator/collections/unidentified/';
/** Below the approval threshold: assigned at once. */
const SMALL = 1_00;
/** Above the threshold: proposed by one operator, approved by another. */
const LARGE = 60_000_00;
/** More rows than a path spends: a gesture the server applied uses its row up. */
const ROWS_PER_GESTURE = 4;

type Gesture = 'assign' | 'approve';

interface Ctx {
  operator: ScreenOperator;
  invoiceId: number;
  /** Claves still pending (for «Asignar») and still proposed (for «Aprobar»), first one next. */
  assignable: string[];
  approvable: string[];
  gesture: Gesture;
  clave: string;
  gates: Record<Gesture, ReturnType<typeof gateEndpoint>>;
}

let sequence = 0;
const today = () => businessDate(new Date());
const dayFromToday = (days: number) => dayjs(today()).add(days, 'day').format(ISO_DATE_FORMAT);

function bearer(access: string): Record<string, string> {
  return { authorization: `Bearer ${access}`, 'idempotency-key': crypto.randomUUID() };
}

async function uploadStatement(access: string, claves: readonly { clave: string; amount: number }[]) {
  const csv = bankStatementCsv(
    claves.map(({ clave, amount }) => ({
      fecha: today(),
      claveRastreo: clave,
      amount,
      rfcOrdenante: null,
      nombreOrdenante: 'ORDENANTE DEL MODELO',
      referencia: '',
      concepto: 'PAGO SIN REFERENCIA',
    })),
  );
  const boundary = 'limitemodelo';
  const body =
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="estado.csv"\r\n` +
    `Content-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`;
  const answer = await forwardToServer(
    new Request(`${TEST_ORIGIN}/api/operator/collections/bank-statement/`, {
      method: 'POST',
      headers: { ...bearer(access), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body,
    }),
  );
  expect(answer.status, await answer.clone().text()).toBe(200);
}

async function queuedIds(access: string): Promise<Map<string, number>> {
  const answer = await forwardToServer(
    new Request(`${TEST_ORIGIN}${QUEUE}`, { headers: { authorization: `Bearer ${access}` } }),
  );
  const page = (await answer.json()) as { results: { id: number; clave_rastreo: string }[] };
  return new Map(page.results.map((row) => [row.clave_rastreo, row.id]));
}

/** An invoice of the demo programme, advanced and disbursed: the queued payments are assigned to it. */
async function owingInvoice(): Promise<number> {
  const { db } = testApp().database;
  const id = await importInvoice(db, { today: today(), folio: `C${randomUUID().slice(0, 8)}` });
  await advanceTo(db, id, 'approved', dayFromToday(30));
  await requestAdvance(db, id);
  // Forced past the desk's checks: they are the desk's models' subject, not this one's.
  await disburseInvoice(db, String(id), {
    account: 'pruebas',
    today: today(),
    force: true,
    authenticity: testAuthenticity(db),
  });
  return id;
}

const form = (ctx: Ctx) =>
  screen.findByRole('form', { name: `Asignar pago ${ctx.assignable[0]}` }, SERVER_WAIT);

async function expectNoForm(): Promise<void> {
  await waitFor(() => expect(screen.queryByRole('form', { name: /^Asignar pago / })).toBeNull(), SERVER_WAIT);
}

/** The gesture's row left the queue (applied), as the list read again shows. */
async function expectRowGone(clave: string): Promise<void> {
  await waitFor(
    () =>
      expect(screen.queryByRole('button', { name: new RegExp(`^(Asignar|Aprobar) ${clave}$`) })).toBeNull(),
    SERVER_WAIT,
  );
}

defineModelTests<Ctx>(collectionActionsModel, {
  setup: async () => {
    sequence += 1;
    const tag = `MOD${process.pid}X${sequence}`;
    const small = Array.from({ length: ROWS_PER_GESTURE }, (_, i) => `${tag}A${i}`);
    const large = Array.from({ length: ROWS_PER_GESTURE }, (_, i) => `${tag}B${i}`);
    const proposer = await world.operatorSession(['tesoreria']);
    await uploadStatement(proposer.access, [
      ...small.map((clave) => ({ clave, amount: SMALL })),
      ...large.map((clave) => ({ clave, amount: LARGE })),
    ]);
    const invoiceId = await owingInvoice();
    const ids = await queuedIds(proposer.access);
    for (const clave of large) {
      const answer = await forwardToServer(
        new Request(`${TEST_ORIGIN}${QUEUE}${ids.get(clave)}/assign/`, {
          method: 'POST',
          headers: { ...bearer(proposer.access), 'content-type': 'application/json' },
          body: JSON.stringify({ invoice_id: invoiceId }),
        }),
      );
      expect(((await answer.json()) as { state: string }).state).toBe('propuesta');
    }
    const roles = ['tesoreria', 'aprobador'] as const;
    const session = await world.operatorSession(roles);
    return {
      operator: { access: session.access, roles },
      invoiceId,
      assignable: small,
      approvable: large,
      gesture: 'assign',
      clave: '',
      gates: {
        assign: gateEndpoint('post', `${QUEUE}:id/assign/`),
        approve: gateEndpoint('post', `${QUEUE}:id/approve/`),
      },
    };
  },
  render: (ctx) => {
    openOperatorScreen('/operacion/cobranza/', ctx.operator);
  },
  states: {
    '#collection-actions.ready.idle': async ({ ctx }) => {
      expect(
        await screen.findByRole('button', { name: `Asignar ${ctx.assignable[0]}` }, SERVER_WAIT),
      ).toBeTruthy();
      await expectNoForm();
      expect(screen.queryByRole('alert')).toBeNull();
      expect(screen.queryByRole('status')).toBeNull();
    },
    '#collection-actions.ready.succeeded': async ({ ctx }) => {
      await expectNoForm();
      const notice = await screen.findByRole('status', {}, SERVER_WAIT);
      expect(notice.textContent).toBe(
        ctx.gesture === 'assign'
          ? `El pago ${ctx.clave} se aplicó a la factura ${ctx.invoiceId}.`
          : `Asignación del pago ${ctx.clave} aprobada y aplicada.`,
      );
      // The queue was read again: the applied payment is no longer waiting.
      await expectRowGone(ctx.clave);
    },
    '#collection-actions.ready.refused': async ({ ctx }) => {
      await expectNoForm();
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(ACTION_FAILED);
      // Nothing was applied: the payment still waits with its gesture.
      const again = ctx.gesture === 'assign' ? 'Asignar' : 'Aprobar';
      expect(await screen.findByRole('button', { name: `${again} ${ctx.clave}` }, SERVER_WAIT)).toBeTruthy();
    },
    '#collection-actions.editing': async ({ ctx }) => {
      const open = await form(ctx);
      expect((within(open).getByRole('button', { name: 'Asignar' }) as HTMLButtonElement).disabled).toBe(
        false,
      );
      expect((within(open).getByLabelText('Id de la factura') as HTMLInputElement).value).toBe('');
    },
    '#collection-actions.acting': async () => {
      expect(await screen.findByLabelText('Procesando', {}, SERVER_WAIT)).toBeTruthy();
      const file = screen.getByLabelText('Cargar estado de cuenta (CSV)') as HTMLInputElement;
      expect(file.disabled).toBe(true);
    },
    '#collection-actions.answerLost': async () => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(NO_RESPONSE_MESSAGE);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
    },
  },
  events: {
    'action.open': async ({ ctx, user }) => {
      ctx.gesture = 'assign';
      ctx.clave = ctx.assignable[0] as string;
      await user.click(await screen.findByRole('button', { name: `Asignar ${ctx.clave}` }, SERVER_WAIT));
      await form(ctx);
    },
    'action.run': async ({ ctx, user }) => {
      ctx.gesture = 'approve';
      ctx.clave = ctx.approvable[0] as string;
      await user.click(await screen.findByRole('button', { name: `Aprobar ${ctx.clave}` }, SERVER_WAIT));
      await ctx.gates.approve.waitForRequest();
    },
    'action.submit': async ({ ctx, user }) => {
      const open = await form(ctx);
      const field = within(open).getByLabelText('Id de la factura');
      await user.clear(field);
      await user.type(field, String(ctx.invoiceId));
      await user.click(within(open).getByRole('button', { name: 'Asignar' }));
      await ctx.gates.assign.waitForRequest();
      expect(ctx.gates.assign.bodies.at(-1)).toEqual({ invoice_id: ctx.invoiceId });
    },
    'xstate.done.actor.act': async ({ ctx }) => {
      await ctx.gates[ctx.gesture].pass();
      // The server applied it: that row is used up.
      (ctx.gesture === 'assign' ? ctx.assignable : ctx.approvable).shift();
    },
    'xstate.error.actor.act': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      const gate = ctx.gates[ctx.gesture];
      if (error.status === 0) {
        const answer = await forwardToServer(await gate.waitForRequest());
        expect(answer.status).toBeLessThan(300);
        await gate.networkError();
        (ctx.gesture === 'assign' ? ctx.assignable : ctx.approvable).shift();
      } else {
        await gate.respond(500, { detail: 'Error interno' });
      }
    },
    'action.retry': async ({ ctx, user }) => {
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
      await ctx.gates[ctx.gesture].waitForRequest();
    },
    'action.cancel': async ({ ctx, user }) => {
      const open = screen.queryByRole('form', { name: `Asignar pago ${ctx.clave}` });
      if (open) await user.click(within(open).getByRole('button', { name: 'Cancelar' }));
      else {
        const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
        await user.click(within(alert).getByRole('button', { name: 'Cancelar' }));
      }
    },
  },
});
