import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { expect } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import {
  CORPORATE_DOCUMENT_LABELS,
  type CorporateDocumentKind,
  type DocumentDecision,
  ONBOARDING_STATE_LABELS,
} from '../../src/domain/corporate-file';
import type { CorporateDetail } from '../../src/domain/schemas/operator-corporates';
import { ONBOARDING_VALUE_TO_STATE } from '../../src/machines/corporate-onboarding.machine';
import { SERVER_WAIT } from '../support/server-wait';
import { corporateUnderReview, inject, pdf } from './corporate-file-helpers';
import {
  corporateOnboardingModel,
  DOCUMENT_REJECTION_REASON,
  MISSING_KIND,
  MODEL_CREATOR_ID,
  MODEL_EXPIRY,
  REJECTION_REASON,
  SUSPENSION_REASON,
} from './corporate-onboarding.model';
import { defineModelTests } from './harness/define-model-tests';
import type { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';

const DECISION_BUTTONS: Record<DocumentDecision, string> = {
  aprobado: 'Aprobar',
  rechazado: 'Rechazar',
  vencido: 'Marcar vencido',
};
const FAULT_DETAIL = 'Error interno del servidor. Por favor, intenta de nuevo.';

interface Ctx {
  corporateId: number;
  access: string;
  upload: ReturnType<typeof gateEndpoint>;
  activate: ReturnType<typeof gateEndpoint>;
  /** Each path meets one lost upload and one failing activation, then retries. */
  uploadFaulted: boolean;
  activateFaulted: boolean;
}

const fileTable = () => screen.getByRole('table', { name: 'Expediente' });
function rowOf(kind: CorporateDocumentKind): HTMLElement {
  const header = within(fileTable()).getByRole('rowheader', { name: CORPORATE_DOCUMENT_LABELS[kind] });
  return header.closest('tr') as HTMLElement;
}
const activateButton = () => screen.getByRole('button', { name: 'Activar corporativo' }) as HTMLButtonElement;
const reactivateButton = () =>
  screen.getByRole('button', { name: 'Reactivar corporativo' }) as HTMLButtonElement;
/** The screen's operator did not create the corporate (the model's creator is another). */
const SCREEN_ACTOR = { userId: MODEL_CREATOR_ID - 1 };

/** The screen and the server agree with the model: state tag, each kind's status, the activation button. */
async function expectState(ctx: Ctx, state: AnyMachineSnapshot) {
  const expected = ONBOARDING_VALUE_TO_STATE[String(state.value)];
  if (!expected) throw new Error(`no onboarding state for ${String(state.value)}`);
  const label = ONBOARDING_STATE_LABELS[expected];
  await screen.findByRole('heading', { level: 1, name: /Modelo/ }, SERVER_WAIT);
  await waitFor(
    () => expect(screen.getByText(label, { selector: '.bp6-tag, .bp6-tag *' })).toBeTruthy(),
    SERVER_WAIT,
  );
  const server = (await inject(
    ctx.access,
    'GET',
    `/api/operator/corporates/${ctx.corporateId}/`,
  )) as CorporateDetail;
  expect(server.state).toBe(expected);
  for (const doc of (state.context as { documents: { kind: CorporateDocumentKind; status: string }[] })
    .documents) {
    expect(server.documents.find((d) => d.kind === doc.kind)?.status).toBe(doc.status);
  }
  // 'Activar corporativo' ('Reactivar' when suspended) is enabled exactly when the machine allows it.
  if (expected === 'suspendido') {
    await waitFor(
      () => expect(reactivateButton().disabled).toBe(!state.can({ type: 'corporate.reactivate' })),
      SERVER_WAIT,
    );
  } else {
    await waitFor(
      () =>
        expect(activateButton().disabled).toBe(
          !state.can({ type: 'corporate.activate', actor: SCREEN_ACTOR }),
        ),
      SERVER_WAIT,
    );
  }
}

defineModelTests<Ctx>(corporateOnboardingModel, {
  setup: async () => {
    return {
      ...(await corporateUnderReview()),
      uploadFaulted: false,
      activateFaulted: false,
    };
  },
  render: (ctx) => {
    renderApp(`/operacion/corporativos/${ctx.corporateId}/`);
  },
  states: {
    '#corporate-onboarding.draft': async ({ ctx, state }) => {
      await expectState(ctx, state);
      expect(screen.getByText(/^Faltan documentos aprobados y vigentes: /)).toBeTruthy();
    },
    '#corporate-onboarding.fileUnderReview': async ({ ctx, state }) => expectState(ctx, state),
    '#corporate-onboarding.active': async ({ ctx, state }) => {
      await expectState(ctx, state);
      expect(screen.queryByRole('button', { name: 'Rechazar corporativo' })).toBeNull();
      expect(screen.getByRole('button', { name: 'Suspender corporativo' })).toBeTruthy();
    },
    '#corporate-onboarding.suspended': async ({ ctx, state }) => {
      await expectState(ctx, state);
      expect(screen.queryByRole('button', { name: 'Suspender corporativo' })).toBeNull();
      expect(screen.queryByRole('button', { name: 'Rechazar corporativo' })).toBeNull();
    },
    '#corporate-onboarding.rejected': async ({ ctx, state }) => {
      await expectState(ctx, state);
      // A rejected file no longer changes: no upload or decision is offered.
      expect(within(fileTable()).queryAllByRole('button', { name: /^(Subir|Reemplazar|Aprobar) / })).toEqual(
        [],
      );
    },
  },
  events: {
    'document.upload': async ({ ctx, event, user }) => {
      const { kind } = event as unknown as { kind: CorporateDocumentKind };
      const verb =
        kind === MISSING_KIND && !within(rowOf(kind)).queryByRole('button', { name: /^Ver / })
          ? 'Subir'
          : 'Reemplazar';
      await user.click(
        within(rowOf(kind)).getByRole('button', { name: `${verb} ${CORPORATE_DOCUMENT_LABELS[kind]}` }),
      );
      const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
      const file = new File([new Uint8Array(await pdf())], `${kind}.pdf`, { type: 'application/pdf' });
      await user.upload(within(dialog).getByLabelText(/Archivo \(PDF/), file);
      await user.click(within(dialog).getByRole('button', { name: 'Subir' }));
      if (!ctx.uploadFaulted) {
        // A lost answer: the dialog stays with the reason, nothing changed; the operator sends it again.
        ctx.uploadFaulted = true;
        await ctx.upload.networkError();
        expect((await within(dialog).findByRole('alert', {}, SERVER_WAIT)).textContent).toMatch(
          /Sin respuesta/,
        );
        await user.click(within(dialog).getByRole('button', { name: 'Subir' }));
      }
      await ctx.upload.pass();
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      await waitFor(() => expect(within(rowOf(kind)).getByText('Pendiente')).toBeTruthy(), SERVER_WAIT);
    },
    'document.decide': async ({ event, user }) => {
      const { kind, status } = event as unknown as { kind: CorporateDocumentKind; status: DocumentDecision };
      const button = `${DECISION_BUTTONS[status]} ${CORPORATE_DOCUMENT_LABELS[kind]}`;
      await user.click(within(rowOf(kind)).getByRole('button', { name: button }));
      const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
      if (status === 'rechazado') {
        await user.type(within(dialog).getByLabelText('Motivo del rechazo'), DOCUMENT_REJECTION_REASON);
      }
      if (status === 'vencido') {
        fireEvent.change(within(dialog).getByLabelText('Fecha de vencimiento'), {
          target: { value: MODEL_EXPIRY },
        });
      }
      await user.click(within(dialog).getByRole('button', { name: 'Registrar decisión' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
      const shown = { aprobado: 'Aprobado', rechazado: 'Rechazado', vencido: 'Vencido' }[status];
      await waitFor(() => expect(within(rowOf(kind)).getByText(shown)).toBeTruthy(), SERVER_WAIT);
    },
    'corporate.activate': async ({ ctx, user }) => {
      await user.click(activateButton());
      if (!ctx.activateFaulted) {
        // The server fails once: its words are shown and the corporate is not active; the operator tries again.
        ctx.activateFaulted = true;
        await ctx.activate.respond(500, { detail: FAULT_DETAIL });
        expect((await screen.findByRole('alert', {}, SERVER_WAIT)).textContent).toBe(FAULT_DETAIL);
        await user.click(activateButton());
      }
      await ctx.activate.pass();
      expect((await screen.findByRole('status', {}, SERVER_WAIT)).textContent).toBe(
        'El corporativo quedó activo.',
      );
    },
    'corporate.suspend': async ({ user }) => {
      await user.click(screen.getByRole('button', { name: 'Suspender corporativo' }));
      const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
      await user.type(within(dialog).getByLabelText('Motivo'), SUSPENSION_REASON);
      await user.click(within(dialog).getByRole('button', { name: 'Suspender' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
    },
    'corporate.reactivate': async ({ user }) => {
      await user.click(reactivateButton());
      // An earlier action's status may still show: wait for this one's words.
      await waitFor(
        () => expect(screen.getByRole('status').textContent).toBe('El corporativo quedó activo.'),
        SERVER_WAIT,
      );
    },
    'corporate.reject': async ({ user }) => {
      await user.click(screen.getByRole('button', { name: 'Rechazar corporativo' }));
      const dialog = await screen.findByRole('dialog', {}, SERVER_WAIT);
      await user.type(within(dialog).getByLabelText('Motivo'), REJECTION_REASON);
      await user.click(within(dialog).getByRole('button', { name: 'Rechazar' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull(), SERVER_WAIT);
    },
  },
});
