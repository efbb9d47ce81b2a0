import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { PDFDocument } from 'pdf-lib';
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
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../src/stores/storage-keys';
import { setUser } from '../../src/stores/user.store';
import { SERVER_WAIT } from '../support/server-wait';
import {
  corporateOnboardingModel,
  DOCUMENT_REJECTION_REASON,
  MISSING_KIND,
  MODEL_CREATOR_ID,
  MODEL_EXPIRY,
  REJECTION_REASON,
  SEEDED_FILE,
  SUSPENSION_REASON,
} from './corporate-onboarding.model';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { testApp } from './harness/test-server';
import { world } from './harness/world';

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

let pdfBytes: Uint8Array | null = null;
async function pdf(): Promise<Uint8Array> {
  if (!pdfBytes) {
    const doc = await PDFDocument.create();
    doc.addPage([200, 100]).drawText('Expediente', { x: 10, y: 50, size: 10 });
    pdfBytes = await doc.save();
  }
  return pdfBytes;
}

let rfcSequence = 0;
function freshRfc(): string {
  rfcSequence += 1;
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  const tag = `${process.pid}${rfcSequence}`;
  const a = letters[Number(tag) % letters.length];
  const b = letters[Math.floor(Number(tag) / letters.length) % letters.length];
  const c = letters[Math.floor(Number(tag) / letters.length ** 2) % letters.length];
  return `M${a}${b}2001${String(10 + (rfcSequence % 18)).padStart(2, '0')}${c}${a}1`;
}

/** A call to the in-process app with the operator's token (the world's setup, not a gesture of the test). */
async function inject(access: string, method: 'GET' | 'POST', url: string, payload?: object) {
  const res = await testApp().app.inject({
    method,
    url,
    headers: { authorization: `Bearer ${access}` },
    ...(payload ? { payload } : {}),
  });
  if (res.statusCode >= 300) throw new Error(`${method} ${url}: ${res.statusCode} ${res.body}`);
  return res.json();
}

const BOUNDARY = 'modelo-expediente';

/** A multipart upload built by hand: the DOM environment's FormData is not the one inject() reads. */
async function injectUpload(
  access: string,
  url: string,
  fields: Record<string, string>,
  fileName: string,
  bytes: Uint8Array,
) {
  const parts: Buffer[] = Object.entries(fields).map(([name, value]) =>
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`),
  );
  parts.push(
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\n` +
        'Content-Type: application/pdf\r\n\r\n',
    ),
    Buffer.from(bytes),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  );
  const res = await testApp().app.inject({
    method: 'POST',
    url,
    headers: {
      authorization: `Bearer ${access}`,
      'content-type': `multipart/form-data; boundary=${BOUNDARY}`,
    },
    payload: Buffer.concat(parts),
  });
  if (res.statusCode !== 201) throw new Error(`upload ${url}: ${res.statusCode} ${res.body}`);
}

/**
 * The model's world: a corporate in borrador with seven of its eight kinds uploaded and approved. An analista
 * creates it and uploads; the reviewer (the screen's operator, who may then activate it) decides.
 */
async function seededCorporate(creator: string, reviewer: string): Promise<number> {
  const access = creator;
  const rfc = freshRfc();
  const created = (await inject(access, 'POST', '/api/operator/corporates/', {
    rfc,
    name: `Modelo ${rfc}, S.A. de C.V.`,
    admin: { name: 'Ana', last_name: 'Modelo', email: `ana.${rfc.toLowerCase()}@modelo.example.mx` },
  })) as { id: number };
  const bytes = await pdf();
  for (const { kind } of SEEDED_FILE) {
    const fields: Record<string, string> = { kind };
    if (kind === 'estado_cuenta') fields.clabe = '002010077777777771';
    await injectUpload(
      access,
      `/api/operator/corporates/${created.id}/documents/`,
      fields,
      `${kind}.pdf`,
      bytes,
    );
  }
  const detail = (await inject(
    reviewer,
    'GET',
    `/api/operator/corporates/${created.id}/`,
  )) as CorporateDetail;
  for (const doc of detail.documents) {
    await inject(reviewer, 'POST', `/api/operator/corporates/${created.id}/documents/${doc.id}/decision/`, {
      status: 'aprobado',
    });
  }
  return created.id;
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
    // Maker-checker: the analista who creates the corporate is not the operator who activates it.
    const creator = await world.operatorSession(['analista']);
    const session = await world.operatorSession(['analista', 'aprobador']);
    const corporateId = await seededCorporate(creator.access, session.access);
    localStorage.setItem(ACCESS_TOKEN_KEY, session.access);
    localStorage.setItem(REFRESH_TOKEN_KEY, session.refresh);
    setUser({ isAuthenticated: true, operatorRoles: ['analista', 'aprobador'] });
    return {
      corporateId,
      access: session.access,
      upload: gateEndpoint('post', `/api/operator/corporates/${corporateId}/documents/`),
      activate: gateEndpoint('post', `/api/operator/corporates/${corporateId}/activate/`),
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
