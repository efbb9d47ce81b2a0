import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import dayjs from 'dayjs';
import ExcelJS from 'exceljs';
import { zipSync } from 'fflate';
import { expect, vi } from 'vitest';
import { buildCfdiXml } from '../../server/cfdi/build-cfdi';
import { businessDate } from '../../server/http/business-date';
import { TEMPLATE_COLUMNS, TEMPLATE_SHEET_NAME } from '../../src/domain/bulk-upload';
import { displayMonthFirstDate } from '../../src/domain/calendar-date';
import { PAYMENT_DATE_REQUIRED } from '../../src/domain/payment-date';
import type { BulkAuthorizationContext } from '../../src/machines/bulk-authorization.machine';
import { readPreAuthorization, savePreAuthorization } from '../../src/stores/pre-authorization.store';
import {
  BULK_DATE_LABEL,
  BULK_PANEL_QUESTION,
  BULK_SUBMIT_TEXT,
  CANCEL_TEXT,
  CHOOSE_ZIP_TEXT,
  DOWNLOAD_TEMPLATE_TEXT,
  DROP_ZONE_TEXT,
  UPLOAD_PROGRESS_LABEL,
  UPLOAD_TEMPLATE_TEXT,
} from '../../src/views/quotation/bulk-authorization';
import { testAuthority } from '../support/demo-authority';
import { SERVER_WAIT } from '../support/server-wait';
import { SESSION_ENDED_BODY } from './authorization-request.model';
import {
  bulkAuthorizationModel,
  PDF_FILE,
  SERVER_500_BODY,
  TEMPLATE_415_BODY,
  TEMPLATE_ROW_ERRORS,
  VALID_DATE,
  XLSX_FILE,
  ZIP_400_BODY,
  ZIP_413_BODY,
  ZIP_415_BODY,
} from './bulk-authorization.model';
import { signInCorporate } from './corporate-helpers';
import { defineModelTests } from './harness/define-model-tests';
import { gateEndpoint } from './harness/msw-gate';
import { renderApp } from './harness/render-app';
import { type Party, world } from './harness/world';

const TEMPLATE = '/api/corporates/template/';
const EXCEL = '/api/corporates/upload/excel/';
const ZIP = '/api/corporates/upload/zip/';

interface Ctx {
  tag: string;
  /** The real payment date VALID_DATE stands for: 30 days from today. */
  paymentDate: string;
  zip: Uint8Array;
  xlsx: Uint8Array;
  /** The two imported invoices the template dates. */
  templateIds: number[];
  gates: {
    template: ReturnType<typeof gateEndpoint>;
    excel: ReturnType<typeof gateEndpoint>;
    zip: ReturnType<typeof gateEndpoint>;
  };
  saved: ReturnType<typeof vi.fn>;
  downloads: ReturnType<typeof vi.fn>;
  objectUrls: { mockRestore: () => void }[];
  assign: ReturnType<typeof vi.spyOn>;
  /** A failed upload happened on this path: from then on the stored work is gone. */
  failed: boolean;
}

let folioSequence = 70_000;

/** Two stamped CFDI of the world's provider to its corporate (the demo's in process), new to Flujo, in one ZIP. */
function cfdiZip(today: string, parties: { provider: Party; corporate: Party }): Uint8Array {
  const entries: Record<string, Uint8Array> = {};
  for (let i = 0; i < 2; i += 1) {
    folioSequence += 1;
    const xml = buildCfdiXml(
      {
        serie: 'M',
        folio: `${folioSequence}-${crypto.randomUUID().slice(0, 6)}`,
        issuedAt: `${dayjs(today).subtract(4, 'day').format('YYYY-MM-DD')}T10:00:00`,
        issuer: { rfc: parties.provider.rfc, name: parties.provider.companyName },
        receiver: { rfc: parties.corporate.rfc, name: parties.corporate.companyName },
        subtotal: '86206.90',
        currency: 'MXN',
        paymentMethod: 'PPD',
        description: 'Servicio de carga masiva',
      },
      testAuthority(),
    );
    entries[`factura-${i + 1}.xml`] = new TextEncoder().encode(xml);
  }
  return zipSync(entries);
}

/** The template as the corporate fills it: the two invoices' folio fiscal and a payment date each. */
async function filledTemplate(uuids: readonly string[], paymentDate: string): Promise<Uint8Array> {
  const workbook = new ExcelJS.Workbook();
  const sheet = workbook.addWorksheet(TEMPLATE_SHEET_NAME);
  sheet.addRow(Object.values(TEMPLATE_COLUMNS));
  for (const uuid of uuids) {
    sheet.addRow([uuid, '', '', '', '', '', '', paymentDate]);
  }
  return new Uint8Array(await workbook.xlsx.writeBuffer());
}

function fileOf(ctx: Ctx, facts: { name: string; type: string }): File {
  const bytes =
    facts.name === XLSX_FILE.name
      ? ctx.xlsx
      : facts.name === PDF_FILE.name
        ? new TextEncoder().encode('%PDF-1.4')
        : ctx.zip;
  return new File([new Uint8Array(bytes)], facts.name, { type: facts.type });
}

/** A file input of the page; the browser's own filter (accept) is not what is tested. */
async function chooseFile(label: string, file: File): Promise<void> {
  const input = (await screen.findByLabelText(label, {}, SERVER_WAIT)) as HTMLInputElement;
  await userEvent.setup({ applyAccept: false }).upload(input, file);
}

async function alertDialog(): Promise<HTMLElement> {
  let found: HTMLElement | null = null;
  await waitFor(() => {
    found =
      screen
        .queryAllByRole('dialog')
        .find((dialog) => within(dialog).queryByRole('button', { name: 'Cerrar' })) ?? null;
    expect(found).toBeTruthy();
  }, SERVER_WAIT);
  return found as unknown as HTMLElement;
}

async function panel(): Promise<HTMLElement> {
  const question = await screen.findByText(BULK_PANEL_QUESTION, {}, SERVER_WAIT);
  return question.closest('form') as HTMLElement;
}

function context(state: { context: unknown }): BulkAuthorizationContext {
  return state.context as BulkAuthorizationContext;
}

async function pageReady(): Promise<void> {
  await screen.findByRole('heading', { level: 1, name: 'Pre-autorización' }, SERVER_WAIT);
  await screen.findByRole('button', { name: DOWNLOAD_TEMPLATE_TEXT }, SERVER_WAIT);
}

async function quotationLines(count: number): Promise<void> {
  await screen.findByRole('heading', { level: 1, name: 'Cotización' }, SERVER_WAIT);
  const table = await screen.findByRole('table', { name: 'Cotización por factura' }, SERVER_WAIT);
  await waitFor(() => expect(within(table).getAllByRole('row').length - 1).toBe(count), SERVER_WAIT);
}

defineModelTests<Ctx>(bulkAuthorizationModel, {
  setup: async () => {
    await signInCorporate();
    const tag = `bulk-${crypto.randomUUID().slice(0, 8)}`;
    const today = businessDate(new Date());
    const paymentDate = dayjs(today).add(30, 'day').format('YYYY-MM-DD');
    const templated = [
      await world.importInvoice({ description: `${tag} uno` }),
      await world.importInvoice({ description: `${tag} dos` }),
    ];
    const templateIds = templated.map((invoice) => invoice.id);
    // Work left from before: a failed upload clears it, a successful one replaces it.
    savePreAuthorization({
      invoices: [{ id: templateIds[0] as number, folio: 'T-0', emissionDate: null, paymentDate }],
      savedAt: Date.now(),
    });
    const saved = vi.fn();
    const downloads = vi.fn();
    const objectUrls = [
      vi.spyOn(URL, 'createObjectURL').mockImplementation((blob) => {
        saved(blob);
        return 'blob:plantilla';
      }),
      vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => {}),
      // The browser's download, not a navigation of the test's window.
      vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
        downloads(this.download);
      }),
    ];
    return {
      tag,
      paymentDate,
      zip: cfdiZip(today, await world.parties()),
      xlsx: await filledTemplate(
        templated.map((invoice) => invoice.uuid),
        paymentDate,
      ),
      templateIds,
      gates: {
        template: gateEndpoint('get', TEMPLATE),
        excel: gateEndpoint('post', EXCEL),
        zip: gateEndpoint('post', ZIP),
      },
      saved,
      downloads,
      objectUrls,
      assign: vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {}),
      failed: false,
    };
  },
  render: (ctx) => {
    renderApp(`/dashboard/pre-autorizacion/?search=${ctx.tag}`);
  },
  teardown: (ctx) => {
    ctx.assign.mockRestore();
    ctx.objectUrls.forEach((spy) => {
      spy.mockRestore();
    });
  },
  states: {
    '#bulk-authorization.noFile': async ({ ctx }) => {
      await pageReady();
      await waitFor(() => expect(screen.queryByText(BULK_PANEL_QUESTION)).toBeNull(), SERVER_WAIT);
      expect(screen.queryByRole('progressbar', { name: UPLOAD_PROGRESS_LABEL })).toBeNull();
      expect((screen.getByLabelText(CHOOSE_ZIP_TEXT) as HTMLInputElement).value).toBe('');
      expect((screen.getByLabelText(UPLOAD_TEMPLATE_TEXT) as HTMLInputElement).value).toBe('');
      expect(screen.getByLabelText(DROP_ZONE_TEXT)).toBeTruthy();
      // Closing an error dialog cleared the stored pre-authorization (spec §4).
      if (ctx.failed) expect(readPreAuthorization().invoices).toEqual([]);
    },
    '#bulk-authorization.refused': async ({ state }) => {
      const dialog = await alertDialog();
      const [message] = context(state).messages;
      expect(dialog.textContent).toContain(message);
      expect(dialog.textContent).toContain('Atención');
    },
    '#bulk-authorization.panelOpen': async ({ ctx, state }) => {
      const form = await panel();
      const field = within(form).getByLabelText(BULK_DATE_LABEL) as HTMLInputElement;
      const { paymentDate, showErrors } = context(state);
      const shown = paymentDate === VALID_DATE ? displayMonthFirstDate(ctx.paymentDate) : '';
      await waitFor(() => expect(field.value).toBe(shown), SERVER_WAIT);
      const required = within(form).queryByText(PAYMENT_DATE_REQUIRED);
      if (showErrors && paymentDate === null) expect(required).toBeTruthy();
      else expect(required).toBeNull();
      expect(within(form).getByRole('button', { name: BULK_SUBMIT_TEXT })).toBeTruthy();
    },
    '#bulk-authorization.uploadingZip': async ({ ctx }) => {
      await ctx.gates.zip.waitForRequest();
      expect(
        await screen.findByRole('progressbar', { name: UPLOAD_PROGRESS_LABEL }, SERVER_WAIT),
      ).toBeTruthy();
    },
    '#bulk-authorization.downloadingTemplate': async ({ ctx }) => {
      await ctx.gates.template.waitForRequest();
      expect(await screen.findByText('Descargando plantilla…', {}, SERVER_WAIT)).toBeTruthy();
    },
    '#bulk-authorization.uploadingTemplate': async ({ ctx }) => {
      await ctx.gates.excel.waitForRequest();
      expect(
        await screen.findByRole('progressbar', { name: UPLOAD_PROGRESS_LABEL }, SERVER_WAIT),
      ).toBeTruthy();
    },
    '#bulk-authorization.failed': async ({ state }) => {
      const dialog = await alertDialog();
      expect(dialog.textContent).toContain('Error');
      // One message a line (spec §8).
      const { messages } = context(state);
      expect(messages.length).toBeGreaterThan(0);
      for (const message of messages) expect(within(dialog).getByText(message)).toBeTruthy();
    },
    '#bulk-authorization.downloadFailed': async ({ state }) => {
      const dialog = await alertDialog();
      const [message] = context(state).messages;
      expect(within(dialog).getByText(message as string)).toBeTruthy();
      // A failed download loads nothing and keeps the saved work.
      expect(readPreAuthorization().invoices.length).toBeGreaterThan(0);
    },
    '#bulk-authorization.done': async ({ ctx, state }) => {
      await quotationLines(2);
      // The returned invoices and the date are the stored pre-authorization work (spec §4).
      const { invoices } = readPreAuthorization();
      expect(invoices.map((line) => line.paymentDate)).toEqual([ctx.paymentDate, ctx.paymentDate]);
      const uploaded = context(state).file;
      expect(uploaded).toBeNull();
    },
  },
  events: {
    'zip.choose': async ({ ctx, event }) => {
      const { file } = event as unknown as { file: { name: string; type: string } };
      await pageReady();
      await chooseFile(CHOOSE_ZIP_TEXT, fileOf(ctx, file));
    },
    'zip.drop': async ({ ctx, event }) => {
      const { file } = event as unknown as { file: { name: string; type: string } };
      await pageReady();
      fireEvent.drop(screen.getByLabelText(DROP_ZONE_TEXT), {
        dataTransfer: { files: [fileOf(ctx, file)] },
      });
    },
    'date.change': async ({ ctx, event, user }) => {
      const { paymentDate } = event as unknown as { paymentDate: string | null };
      const field = within(await panel()).getByLabelText(BULK_DATE_LABEL) as HTMLInputElement;
      await user.clear(field);
      if (paymentDate !== null) await user.type(field, displayMonthFirstDate(ctx.paymentDate));
    },
    'panel.close': async ({ user }) => {
      await user.click(within(await panel()).getByRole('button', { name: CANCEL_TEXT }));
    },
    'bulk.submit': async ({ user }) => {
      await user.click(within(await panel()).getByRole('button', { name: BULK_SUBMIT_TEXT }));
    },
    'xstate.done.actor.uploadZip': async ({ ctx }) => {
      await ctx.gates.zip.pass();
    },
    'xstate.error.actor.uploadZip': async ({ ctx, event }) => {
      const { error } = event as unknown as { error: { status: number } };
      ctx.failed = true;
      if (error.status === 0) await ctx.gates.zip.networkError();
      else if (error.status === 400) await ctx.gates.zip.respond(400, ZIP_400_BODY);
      else if (error.status === 415) await ctx.gates.zip.respond(415, ZIP_415_BODY);
      else if (error.status === 413) await ctx.gates.zip.respond(413, ZIP_413_BODY);
      else if (error.status === 401) await ctx.gates.zip.respond(401, SESSION_ENDED_BODY);
      else await ctx.gates.zip.respond(500, SERVER_500_BODY);
    },
    'template.download': async ({ user }) => {
      await pageReady();
      await user.click(screen.getByRole('button', { name: DOWNLOAD_TEMPLATE_TEXT }));
    },
    'xstate.done.actor.downloadTemplate': async ({ ctx }) => {
      await ctx.gates.template.pass();
      await waitFor(() => expect(ctx.saved).toHaveBeenCalledTimes(1), SERVER_WAIT);
      const blob = ctx.saved.mock.calls[0]?.[0] as Blob;
      expect(blob.size).toBeGreaterThan(0);
      expect(ctx.downloads).toHaveBeenCalledWith(
        expect.stringMatching(/^plantilla-pre-autorizacion-.*\.xlsx$/),
      );
    },
    'xstate.error.actor.downloadTemplate': async ({ ctx }) => {
      await ctx.gates.template.respond(500, SERVER_500_BODY);
    },
    'template.choose': async ({ ctx, event }) => {
      const { file } = event as unknown as { file: { name: string; type: string } };
      await pageReady();
      await chooseFile(UPLOAD_TEMPLATE_TEXT, fileOf(ctx, file));
    },
    'xstate.done.actor.uploadTemplate': async ({ ctx, event }) => {
      const { output } = event as unknown as { output: { validation_errors: Record<string, unknown> } };
      if (Object.keys(output.validation_errors).length === 0) {
        await ctx.gates.excel.pass();
      } else {
        ctx.failed = true;
        await ctx.gates.excel.respond(200, {
          processed_invoices: [],
          validation_errors: TEMPLATE_ROW_ERRORS,
        });
      }
    },
    'xstate.error.actor.uploadTemplate': async ({ ctx }) => {
      ctx.failed = true;
      await ctx.gates.excel.respond(415, TEMPLATE_415_BODY);
    },
    'dialog.close': async ({ user }) => {
      const dialog = await alertDialog();
      await user.click(within(dialog).getByRole('button', { name: 'Cerrar' }));
    },
  },
});
