import { screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import { CORPORATE_DOCUMENT_KINDS, CORPORATE_DOCUMENT_LABELS } from '../../src/domain/corporate-file';
import type { CorporateDetail } from '../../src/domain/schemas/operator-corporates';
import { NO_ANSWER } from '../../src/views/operator/corporates/corporate-actions-view';
import { SERVER_WAIT } from '../support/server-wait';
import { corporateActionsModel, FIELD_REFUSAL, FORM_KIND, REFUSAL_DETAIL } from './corporate-actions.model';
import { corporateUnderReview, inject, pdf } from './corporate-file-helpers';
import { defineModelTests } from './harness/define-model-tests';
import type { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';

interface Ctx {
  corporateId: number;
  access: string;
  upload: ReturnType<typeof gateEndpoint>;
  activate: ReturnType<typeof gateEndpoint>;
  /** The gesture in progress or last made: the form (replacing 'Poderes') or the one click ('Activar'). */
  gesture: 'upload' | 'activate' | null;
  /** The status of the last refusal the gates answered with. */
  fault: number | null;
  /** 'Activar corporativo' went through: the corporate is activo from then on. */
  activated: boolean;
}

const LABEL = CORPORATE_DOCUMENT_LABELS[FORM_KIND];
const ACTIVE = 'El corporativo quedó activo.';
const UPLOADED = 'Documento cargado; queda pendiente de revisión.';
const activateButton = () => screen.getByRole('button', { name: 'Activar corporativo' }) as HTMLButtonElement;
const gate = (ctx: Ctx) => (ctx.gesture === 'upload' ? ctx.upload : ctx.activate);

async function serverState(ctx: Ctx): Promise<CorporateDetail['state']> {
  const detail = (await inject(
    ctx.access,
    'GET',
    `/api/operator/corporates/${ctx.corporateId}/`,
  )) as CorporateDetail;
  return detail.state;
}

async function uploadDialog(): Promise<HTMLElement> {
  return screen.findByRole('dialog', { name: `Subir: ${LABEL}` }, SERVER_WAIT);
}

defineModelTests<Ctx>(corporateActionsModel, {
  setup: async () => {
    return {
      ...(await corporateUnderReview(CORPORATE_DOCUMENT_KINDS)),
      gesture: null,
      fault: null,
      activated: false,
    };
  },
  render: (ctx) => {
    renderApp(`/operacion/corporativos/${ctx.corporateId}/`);
  },
  states: {
    '#corporate-actions.ready.idle': async ({ ctx }) => {
      await screen.findByRole('heading', { level: 1, name: /Modelo/ }, SERVER_WAIT);
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      expect(screen.queryByRole('status')).toBeNull();
      expect(screen.queryByRole('alert')).toBeNull();
      // Between gestures the screen offers activation exactly while the file waits for it.
      expect(await serverState(ctx)).toBe(ctx.activated ? 'activo' : 'en_revision');
      await waitFor(() => expect(activateButton().disabled).toBe(ctx.activated), SERVER_WAIT);
    },
    '#corporate-actions.ready.succeeded': async ({ ctx }) => {
      const status = await screen.findByRole('status', {}, SERVER_WAIT);
      expect(status.textContent).toBe(ctx.gesture === 'upload' ? UPLOADED : ACTIVE);
      expect(await serverState(ctx)).toBe(ctx.gesture === 'upload' ? 'en_revision' : 'activo');
    },
    '#corporate-actions.ready.refused': async ({ ctx }) => {
      expect((await screen.findByRole('alert', {}, SERVER_WAIT)).textContent).toBe(REFUSAL_DETAIL);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(await serverState(ctx)).toBe('en_revision');
    },
    '#corporate-actions.editing': async ({ ctx }) => {
      if (ctx.gesture === 'upload') {
        const dialog = await uploadDialog();
        expect(within(dialog).queryByRole('alert')).toBeNull();
        expect((within(dialog).getByRole('button', { name: 'Subir' }) as HTMLButtonElement).disabled).toBe(
          false,
        );
        return;
      }
      // The one click refused at fields: the server's words, and a way to close them.
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(FIELD_REFUSAL.file[0]);
      expect(within(alert).getByRole('button', { name: 'Cancelar' })).toBeTruthy();
      expect(await serverState(ctx)).toBe('en_revision');
    },
    '#corporate-actions.acting': async ({ ctx }) => {
      if (ctx.gesture === 'upload') {
        const dialog = await uploadDialog();
        await waitFor(
          () =>
            expect(
              (within(dialog).getByRole('button', { name: /Subir/ }) as HTMLButtonElement).disabled,
            ).toBe(true),
          SERVER_WAIT,
        );
        return;
      }
      await waitFor(() => expect(activateButton().disabled).toBe(true), SERVER_WAIT);
    },
    '#corporate-actions.answerLost': async ({ ctx }) => {
      if (ctx.gesture === 'upload') {
        const dialog = await uploadDialog();
        expect((await within(dialog).findByRole('alert', {}, SERVER_WAIT)).textContent).toMatch(
          /Sin respuesta/,
        );
        return;
      }
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      expect(alert.textContent).toContain(NO_ANSWER);
      expect(within(alert).getByRole('button', { name: 'Reintentar' })).toBeTruthy();
      // The request never reached the server: nothing changed, and the retry may send it again.
      expect(await serverState(ctx)).toBe('en_revision');
      expect(activateButton().disabled).toBe(true);
    },
  },
  events: {
    'action.open': async ({ ctx, user }) => {
      ctx.gesture = 'upload';
      await screen.findByRole('heading', { level: 1, name: /Modelo/ }, SERVER_WAIT);
      await user.click(await screen.findByRole('button', { name: `Reemplazar ${LABEL}` }, SERVER_WAIT));
      await uploadDialog();
    },
    'action.submit': async ({ ctx, user }) => {
      const dialog = await uploadDialog();
      const file = new File([new Uint8Array(await pdf())], `${FORM_KIND}.pdf`, { type: 'application/pdf' });
      await user.upload(within(dialog).getByLabelText(/Archivo \(PDF/), file);
      await user.click(within(dialog).getByRole('button', { name: 'Subir' }));
      await ctx.upload.waitForRequest();
    },
    'action.run': async ({ ctx, user }) => {
      ctx.gesture = 'activate';
      await screen.findByRole('heading', { level: 1, name: /Modelo/ }, SERVER_WAIT);
      await waitFor(() => expect(activateButton().disabled).toBe(false), SERVER_WAIT);
      await user.click(activateButton());
      await ctx.activate.waitForRequest();
    },
    'xstate.done.actor.act': async ({ ctx }) => {
      await gate(ctx).pass();
      if (ctx.gesture === 'activate') ctx.activated = true;
    },
    'xstate.error.actor.act': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      ctx.fault = error.status;
      if (error.status === 0) await gate(ctx).networkError();
      else await gate(ctx).respond(error.status, error.body);
    },
    'action.retry': async ({ ctx, user }) => {
      if (ctx.gesture === 'upload') {
        await user.click(within(await uploadDialog()).getByRole('button', { name: 'Subir' }));
      } else {
        const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
        await user.click(within(alert).getByRole('button', { name: 'Reintentar' }));
      }
      await gate(ctx).waitForRequest();
    },
    'action.cancel': async ({ ctx, user }) => {
      if (ctx.gesture === 'upload') {
        await user.click(within(await uploadDialog()).getByRole('button', { name: 'Cancelar' }));
        return;
      }
      const alert = await screen.findByRole('alert', {}, SERVER_WAIT);
      await user.click(within(alert).getByRole('button', { name: 'Cancelar' }));
    },
    'outcome.dismiss': async ({ user }) => {
      await user.click(await screen.findByRole('button', { name: 'Cerrar aviso' }, SERVER_WAIT));
    },
  },
});
