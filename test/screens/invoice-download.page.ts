import { screen } from '@testing-library/react';
import dayjs from 'dayjs';
import { unzipSync } from 'fflate';
import { HttpResponse } from 'msw';
import { expect, vi } from 'vitest';
import { invoiceLabel } from '../../server/modules/invoices/invoice-access';
import { advancedInvoicesZipName } from '../../src/domain/advanced-invoices';
import { gateEndpoint } from '../model/harness/msw-gate';
import { forwardToServer, TEST_ORIGIN, testApp } from '../model/harness/test-server';

export const USERNAME = 'proveedor.demo';

export const PATH = '/dashboard/facturas-pronto-pago/';

export const DOWNLOAD = '/api/providers/advanced-invoices/download/';

/**
 * Holds each download request until the path says how it ends: the real app's ZIP at once (no size: progress
 * indeterminate), or streamed in two halves with Content-Length so the page shows a percentage; a fault
 * answers without reaching the server.
 */
export function downloadGate() {
  const gate = gateEndpoint('post', DOWNLOAD);
  let open: { controller: ReadableStreamDefaultController<Uint8Array>; rest: Uint8Array } | null = null;
  return {
    bodies: gate.bodies,
    async waitForRequest(): Promise<void> {
      await gate.waitForRequest();
    },
    /** Sends the first half of the real ZIP, announcing its full size. */
    async half(): Promise<void> {
      const { request, resolve } = await gate.take();
      const response = await forwardToServer(request);
      const bytes = new Uint8Array(await response.arrayBuffer());
      const cut = Math.floor(bytes.length / 2);
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          controller.enqueue(bytes.slice(0, cut));
          open = { controller, rest: bytes.slice(cut) };
        },
      });
      resolve(
        new HttpResponse(body, {
          status: 200,
          headers: { 'content-type': 'application/zip', 'content-length': String(bytes.length) },
        }),
      );
    },
    async finish(): Promise<void> {
      if (open) {
        open.controller.enqueue(open.rest);
        open.controller.close();
        open = null;
        return;
      }
      await gate.pass();
    },
    respond: gate.respond,
    networkError: gate.networkError,
  };
}

/** What the page saves: the blob handed to URL.createObjectURL and the <a download> name clicked. */
export function fileSaveSpy() {
  const blobs: Blob[] = [];
  const names: string[] = [];
  const original = URL.createObjectURL;
  const originalRevoke = URL.revokeObjectURL;
  URL.createObjectURL = (blob: Blob) => {
    blobs.push(blob);
    return `blob:${TEST_ORIGIN}/${blobs.length}`;
  };
  URL.revokeObjectURL = () => {};
  const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download);
  });
  return {
    blobs,
    names,
    restore() {
      URL.createObjectURL = original;
      URL.revokeObjectURL = originalRevoke;
      click.mockRestore();
    },
  };
}

export interface Ctx {
  gate: ReturnType<typeof downloadGate>;
  files: ReturnType<typeof fileSaveSpy>;
  assign: ReturnType<typeof vi.spyOn>;
  /** The folio fiscal of the row the path selected, once selected. */
  selected: string | null;
  fault: number | null;
}

export const downloadButton = () =>
  screen.getByRole('button', { name: 'Descargar seleccionados' }) as HTMLButtonElement;

export const rowBoxes = () =>
  screen.getAllByRole('checkbox', { name: /^Seleccionar factura / }) as HTMLInputElement[];

export const notice = (role: 'status' | 'alert') =>
  screen.queryAllByRole(role).find((element) => element.classList.contains('bp6-callout')) ?? null;

/** An invoice's stored CFDI as the ZIP must carry it. */
export interface StoredCfdi {
  uuid: string;
  serie: string | null;
  folio: string | null;
  xml: string;
}

export async function storedInvoice(uuid: string): Promise<StoredCfdi> {
  return testApp()
    .database.db.selectFrom('invoices')
    .select(['cfdi_uuid as uuid', 'serie', 'folio', 'cfdi_xml as xml'])
    .where('cfdi_uuid', '=', uuid)
    .executeTakeFirstOrThrow();
}

/** `stored` reads what the server holds (default: the in-process app's database). */
export async function expectSavedZip(
  ctx: Ctx,
  uuids: readonly string[],
  stored: (uuid: string) => Promise<StoredCfdi> = storedInvoice,
): Promise<void> {
  expect(ctx.files.names.at(-1)).toBe(advancedInvoicesZipName(dayjs().format('YYYY-MM-DD')));
  const zip = unzipSync(new Uint8Array(await ctx.files.blobs.at(-1)!.arrayBuffer()));
  expect(Object.keys(zip)).toHaveLength(uuids.length * 2);
  for (const uuid of uuids) {
    const invoice = await stored(uuid);
    const name = invoiceLabel({ ...invoice, cfdi_uuid: invoice.uuid });
    expect(new TextDecoder().decode(zip[`${name}.xml`])).toBe(invoice.xml);
    expect(new TextDecoder().decode(zip[`${name}.pdf`]!.subarray(0, 5))).toBe('%PDF-');
  }
}
