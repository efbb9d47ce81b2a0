import { afterEach, describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, initialTransition, waitFor } from 'xstate';
import { MAX_DOWNLOAD_INVOICES } from '../domain/advanced-invoices';
import {
  DOWNLOAD_FAILED,
  DOWNLOAD_OFFLINE,
  DOWNLOAD_SESSION_ENDED,
  type DownloadInput,
  downloadErrorMessage,
  downloadedMessage,
  invoiceDownloadMachine,
} from './invoice-download.machine';

/** The machine's own notice delay (spec §9: 2 s), whatever a test provides. */
const NOTICE_MS = invoiceDownloadMachine.implementations.delays.NOTICE_MS as number;

const ZIP = new Blob(['PK'], { type: 'application/zip' });
const ids = (count: number) => Array.from({ length: count }, (_, index) => index + 1);

/** The machine with a fake download the test drives by hand (progress, then success or failure). */
function downloader() {
  const calls: { input: DownloadInput; resolve: (blob: Blob) => void; reject: (error: unknown) => void }[] =
    [];
  const saved: { blob: Blob; count: number }[] = [];
  const machine = invoiceDownloadMachine.provide({
    actors: {
      downloadInvoices: fromPromise<Blob, DownloadInput>(
        ({ input }) => new Promise((resolve, reject) => calls.push({ input, resolve, reject })),
      ),
    },
    actions: { saveZip: (_, params) => void saved.push(params) },
    delays: { NOTICE_MS: 20 },
  });
  const actor = createActor(machine).start();
  const start = async (count: number) => {
    actor.send({ type: 'download.start', invoiceIds: ids(count) });
    await waitFor(actor, () => calls.length > 0);
    return calls.at(-1)!;
  };
  return { actor, calls, saved, start };
}

describe('invoiceDownloadMachine: the selection', () => {
  const [ready] = initialTransition(invoiceDownloadMachine);

  it.each([
    [0, false],
    [1, true],
    [MAX_DOWNLOAD_INVOICES, true],
    [MAX_DOWNLOAD_INVOICES + 1, false],
  ])('%i selected invoices: start allowed %s', (count, allowed) => {
    expect(ready.value).toEqual({ ready: 'idle' });
    expect(ready.can({ type: 'download.start', invoiceIds: ids(count) })).toBe(allowed);
  });

  it('a refused selection leaves the machine idle and calls nothing', () => {
    const { actor, calls } = downloader();
    actor.send({ type: 'download.start', invoiceIds: [] });
    actor.send({ type: 'download.start', invoiceIds: ids(MAX_DOWNLOAD_INVOICES + 1) });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
    expect(calls).toEqual([]);
  });
});

describe('invoiceDownloadMachine: a download', () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it('passes the selected ids, is busy and refuses a second start until it ends', async () => {
    const { actor, calls, start } = downloader();
    const call = await start(3);
    expect(call.input.invoiceIds).toEqual([1, 2, 3]);
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('downloading');
    expect(snapshot.hasTag('busy')).toBe(true);
    expect(snapshot.context).toEqual({ progress: null, count: 3, error: null });
    expect(snapshot.can({ type: 'download.start', invoiceIds: [4] })).toBe(false);
    actor.send({ type: 'download.start', invoiceIds: [4] });
    expect(calls).toHaveLength(1);
  });

  it('reports progress as a fraction of a known size, capped at 1, else indeterminate', async () => {
    const { actor, start } = downloader();
    const { input } = await start(2);
    const progress = () => actor.getSnapshot().context.progress;
    input.onProgress({ loaded: 250, total: 1000 });
    expect(progress()).toBe(0.25);
    input.onProgress({ loaded: 1200, total: 1000 });
    expect(progress()).toBe(1);
    input.onProgress({ loaded: 500, total: null });
    expect(progress()).toBeNull();
    input.onProgress({ loaded: 500, total: 0 });
    expect(progress()).toBeNull();
  });

  it('saves the ZIP once with its count, shows the notice and hides it after NOTICE_MS', async () => {
    const { actor, saved, start } = downloader();
    const call = await start(3);
    call.input.onProgress({ loaded: 10, total: 40 });
    call.resolve(ZIP);
    const done = await waitFor(actor, (s) => s.matches({ ready: 'done' }));
    expect(done.hasTag('busy')).toBe(false);
    expect(saved).toEqual([{ blob: ZIP, count: 3 }]);
    expect(downloadedMessage(done.context.count)).toBe('Se descargaron 3 facturas (XML y PDF).');
    await waitFor(actor, (s) => s.matches({ ready: 'idle' }));
    expect(saved).toHaveLength(1);
  });

  it('the notice can be dismissed, and a new download may start while it shows', async () => {
    const { actor, calls, start } = downloader();
    (await start(1)).resolve(ZIP);
    await waitFor(actor, (s) => s.matches({ ready: 'done' }));
    expect(downloadedMessage(actor.getSnapshot().context.count)).toBe('Se descargó 1 factura (XML y PDF).');
    actor.send({ type: 'notice.dismiss' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
    (await start(2)).resolve(ZIP);
    await waitFor(actor, (s) => s.matches({ ready: 'done' }));
    await start(4);
    expect(calls).toHaveLength(3);
    expect(actor.getSnapshot().context).toEqual({ progress: null, count: 4, error: null });
  });

  it("a failure saves nothing, keeps the server's reason until dismissed, and a retry clears it", async () => {
    vi.useFakeTimers();
    const { actor, saved, start } = downloader();
    (await start(2)).reject({ status: 409, body: { detail: 'La factura 2 no está adelantada.' } });
    const failed = await waitFor(actor, (s) => s.matches({ ready: 'failed' }));
    expect(failed.context.error).toBe('La factura 2 no está adelantada.');
    expect(saved).toEqual([]);
    // No timer on a failure: it stays until the user closes it, long past any notice delay (provided or 2 s).
    await vi.advanceTimersByTimeAsync(10 * NOTICE_MS);
    expect(actor.getSnapshot().value).toEqual({ ready: 'failed' });
    await start(2);
    expect(actor.getSnapshot().context.error).toBeNull();
  });

  it('fails with the generic message when the route did not provide the call', async () => {
    const actor = createActor(invoiceDownloadMachine).start();
    actor.send({ type: 'download.start', invoiceIds: [1] });
    const failed = await waitFor(actor, (s) => s.matches({ ready: 'failed' }));
    expect(failed.context.error).toBe(DOWNLOAD_FAILED);
    actor.send({ type: 'notice.dismiss' });
    expect(actor.getSnapshot().value).toEqual({ ready: 'idle' });
  });
});

describe('downloadErrorMessage', () => {
  it.each([
    ['no response', { status: 0, body: null }, DOWNLOAD_OFFLINE],
    ['an ended session', { status: 401, body: { detail: 'Token inválido' } }, DOWNLOAD_SESSION_ENDED],
    ['a 404 detail', { status: 404, body: { detail: 'No encontrado.' } }, 'No encontrado.'],
    [
      'the first field message of a 400',
      { status: 400, body: { invoice_ids: ['Selecciona de 1 a 100 facturas.', 'Otra'] } },
      'Selecciona de 1 a 100 facturas.',
    ],
    ['a blank detail', { status: 409, body: { detail: '  ' } }, DOWNLOAD_FAILED],
    ['a server error, whatever it says', { status: 500, body: { detail: 'Traceback…' } }, DOWNLOAD_FAILED],
    ['something that is not a call failure', new Error('boom'), DOWNLOAD_FAILED],
    ['nothing', null, DOWNLOAD_FAILED],
  ])('%s', (_, error, message) => {
    expect(downloadErrorMessage(error)).toBe(message);
  });
});
