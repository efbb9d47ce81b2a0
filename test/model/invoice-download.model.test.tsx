import { screen, waitFor, within } from '@testing-library/react';
import { expect, vi } from 'vitest';
import type { AnyMachineSnapshot } from 'xstate';
import { downloadedMessage } from '../../src/machines/invoice-download.machine';
import { ACCESS_TOKEN_KEY } from '../../src/stores/storage-keys';
import { ADVANCED_INVOICES_TITLE } from '../../src/views/advanced-invoices/advanced-invoices-page';
import {
  type Ctx,
  downloadButton,
  downloadGate,
  expectSavedZip,
  fileSaveSpy,
  notice,
  PATH,
  rowBoxes,
} from '../screens/invoice-download.page';
import { SERVER_WAIT } from '../support/server-wait';
import { defineModelTests } from './harness/define-model-tests';
import { renderApp, signInAs } from './harness/render-app';
import { callServer } from './harness/test-server';
import { world } from './harness/world';
import { invoiceDownloadModel } from './invoice-download.model';
import { approvedInvoice } from './pronto-pago-helpers';

// The machine's real notice time is 2 s (spec §9).

function expectSessionEnded(ctx: Ctx): void {
  // Spec §8: a 401 clears all local storage and sends the browser to '/'.
  expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBeNull();
  expect(localStorage.length).toBe(0);
  expect(ctx.assign).toHaveBeenCalledWith('/');
}

/** Folio fiscal → id of each invoice a path sent (the ZIP check reads its stored CFDI by id). */
const sentIds = new Map<string, number>();

let advancedListed: Promise<void> | null = null;

/**
 * The page lists the provider's advanced invoices (En trámite, Pagada). The demo provider has some; a fresh
 * world (remote run) has none, so one is walked there once per file.
 */
function ensureAdvancedInvoice(access: string): Promise<void> {
  advancedListed ??= (async () => {
    const list = await callServer('GET', '/api/providers/advanced-invoices/', {
      headers: { authorization: `Bearer ${access}` },
    });
    expect(list.status).toBe(200);
    if ((list.body as { count: number }).count === 0) await approvedInvoice(30, { advanced: true });
  })();
  return advancedListed;
}

function progressOf(state: AnyMachineSnapshot): number | null {
  return (state.context as { progress: number | null }).progress;
}

defineModelTests<Ctx>(invoiceDownloadModel, {
  setup: async () => {
    const { provider } = await world.parties();
    const { access } = await signInAs(provider.username, provider.password);
    await ensureAdvancedInvoice(access);
    return {
      gate: downloadGate(),
      files: fileSaveSpy(),
      // A DOM test cannot reload the page; the spy records the reload to '/' that a 401 asks for.
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      selected: null,
      fault: null,
    };
  },
  render: async () => {
    renderApp(PATH);
    await screen.findAllByRole('checkbox', { name: /^Seleccionar factura / }, SERVER_WAIT);
  },
  teardown: (ctx) => {
    ctx.files.restore();
    ctx.assign.mockRestore();
  },
  states: {
    '#invoiceDownload.ready.idle': async ({ ctx }) => {
      expect(screen.getByRole('heading', { level: 1, name: ADVANCED_INVOICES_TITLE })).toBeTruthy();
      await waitFor(() => expect(notice('status')).toBeNull(), SERVER_WAIT);
      expect(notice('alert')).toBeNull();
      expect(screen.queryByLabelText('Progreso de la descarga')).toBeNull();
      // Spec §5: disabled with no selection; the selection survives a failure.
      expect(downloadButton().disabled).toBe(ctx.selected === null);
    },
    '#invoiceDownload.downloading': async ({ state }) => {
      // Spec §4: download buttons are disabled while a report is in progress.
      await waitFor(() => expect(downloadButton().disabled).toBe(true), SERVER_WAIT);
      const progress = progressOf(state);
      const text =
        progress === null ? 'Preparando tus archivos…' : `Descargando… ${Math.round(progress * 100)} %`;
      expect(await screen.findByText(text, {}, SERVER_WAIT)).toBeTruthy();
      expect(screen.getByLabelText('Progreso de la descarga')).toBeTruthy();
    },
    '#invoiceDownload.ready.done': async ({ ctx, state }) => {
      await waitFor(
        () => expect(notice('status')?.textContent).toContain(downloadedMessage(state.context.count)),
        SERVER_WAIT,
      );
      await expectSavedZip(ctx, [ctx.selected!], (uuid) => world.invoiceCfdi(sentIds.get(uuid)!));
      expect(downloadButton().disabled).toBe(false);
    },
    '#invoiceDownload.ready.failed': async ({ ctx, state }) => {
      await waitFor(() => expect(notice('alert')?.textContent).toContain(state.context.error), SERVER_WAIT);
      expect(screen.queryByLabelText('Progreso de la descarga')).toBeNull();
      expect(downloadButton().disabled).toBe(false);
      if (ctx.fault === 401) expectSessionEnded(ctx);
    },
  },
  events: {
    'download.start': async ({ ctx, user }) => {
      if (ctx.selected === null) {
        const [first] = rowBoxes();
        await user.click(first!);
        ctx.selected = first!.getAttribute('aria-label')!.replace('Seleccionar factura ', '');
      }
      await user.click(downloadButton());
      await ctx.gate.waitForRequest();
      // The page sends the id of the row the user ticked.
      const [id] = (ctx.gate.bodies.at(-1) as { invoice_ids: number[] }).invoice_ids;
      const sent = await world.invoiceCfdi(id!);
      expect(ctx.gate.bodies.at(-1)).toEqual({ invoice_ids: [id] });
      expect(sent.uuid).toBe(ctx.selected);
      sentIds.set(sent.uuid, id!);
    },
    'download.progress': async ({ ctx }) => {
      await ctx.gate.half();
    },
    'xstate.done.actor.downloadInvoices': async ({ ctx }) => {
      await ctx.gate.finish();
    },
    'xstate.error.actor.downloadInvoices': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number; body: unknown } };
      ctx.fault = error.status;
      if (error.status === 0) await ctx.gate.networkError();
      else await ctx.gate.respond(error.status, error.body);
    },
    'notice.dismiss': async ({ ctx, user }) => {
      const shown = notice('status') ?? notice('alert');
      await user.click(within(shown!).getByRole('button', { name: 'Cerrar' }));
      ctx.fault = null;
    },
    'xstate.after.NOTICE_MS.invoiceDownload.ready.done': async () => {
      await waitFor(() => expect(notice('status')).toBeNull(), SERVER_WAIT);
    },
  },
});
