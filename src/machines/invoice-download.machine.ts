import { assign, fromPromise, setup } from 'xstate';
import { MAX_DOWNLOAD_INVOICES } from '../domain/advanced-invoices';
import { failureText } from '../domain/call-failure';

export const DOWNLOAD_FAILED = 'No pudimos descargar las facturas. Por favor, intenta de nuevo.';
export const DOWNLOAD_OFFLINE =
  'No pudimos descargar las facturas: no hubo respuesta del servidor. Revisa tu conexión e intenta de nuevo.';
export const DOWNLOAD_SESSION_ENDED = 'Tu sesión terminó. Ingresa de nuevo para descargar tus facturas.';

/** What a download holds: the advanced invoices' ZIP (XML and PDF each) or the account statement's report. */
export type DownloadKind = 'files' | 'report';

/** 'Se descargaron 3 facturas (XML y PDF).'; for the statement 'Se descargó el reporte de 3 facturas.' */
export function downloadedMessage(count: number, kind: DownloadKind = 'files'): string {
  if (kind === 'report') {
    return count === 1
      ? 'Se descargó el reporte de 1 factura.'
      : `Se descargó el reporte de ${count.toLocaleString('en-US')} facturas.`;
  }
  return count === 1 ? 'Se descargó 1 factura (XML y PDF).' : `Se descargaron ${count} facturas (XML y PDF).`;
}

/** 1 to `max` invoices: the selection a download accepts (the ZIP's 100; the statement's report provides its own). */
export function isDownloadableSelection(invoiceIds: readonly number[], max: number): boolean {
  return invoiceIds.length >= 1 && invoiceIds.length <= max;
}

/** Progress the download actor reports: bytes so far and the expected total when the server said it. */
export interface DownloadProgressEvent {
  type: 'download.progress';
  loaded: number;
  total: number | null;
}

export interface DownloadInput {
  invoiceIds: readonly number[];
  onProgress: (progress: { loaded: number; total: number | null }) => void;
}

/** Why a download failed, in Spanish: the server's own refusal when it gave one (404, 409, 400), else generic. */
export function downloadErrorMessage(error: unknown): string {
  return failureText(error, {
    read: (status) =>
      status !== null && status !== 0 && status !== 401 && status < 500 ? ['detail', '[]'] : [],
    otherwise: (status) =>
      status === 0 ? DOWNLOAD_OFFLINE : status === 401 ? DOWNLOAD_SESSION_ENDED : DOWNLOAD_FAILED,
  });
}

/**
 * 'Descargar seleccionados' on the advanced invoices (spec §2, §4): one ZIP with each selected invoice's CFDI
 * XML and PDF. Allowed with 1 to 100 selected invoices and not while a download runs ('Download buttons are
 * disabled while a report is in progress'); progress is a fraction when the size is known, else null
 * (indeterminate). The ZIP is handed to the injected `saveZip` action; a failure keeps the selection.
 */
export const invoiceDownloadMachine = setup({
  types: {
    context: {} as {
      /** 0..1, or null while the size is unknown. */
      progress: number | null;
      /** How many invoices the last download held. */
      count: number;
      error: string | null;
    },
    events: {} as
      | { type: 'download.start'; invoiceIds: readonly number[] }
      | DownloadProgressEvent
      | { type: 'notice.dismiss' },
  },
  actors: {
    // Provided by the route (the real call) or a test; the machine never fetches.
    downloadInvoices: fromPromise<Blob, DownloadInput>(async () => {
      throw new Error('downloadInvoices was not provided');
    }),
  },
  guards: {
    // The statement's report provides its own limit (MAX_REPORT_INVOICES) under the same name.
    validSelection: ({ event }) =>
      event.type === 'download.start' && isDownloadableSelection(event.invoiceIds, MAX_DOWNLOAD_INVOICES),
  },
  actions: {
    // Provided by the route: an object URL and a click on a temporary <a download>.
    saveZip: (_, _params: { blob: Blob; count: number }) => {},
    begin: assign({
      progress: null,
      error: null,
      count: (_, params: { count: number }) => params.count,
    }),
    keepProgress: assign({
      progress: (_, params: { loaded: number; total: number | null }) =>
        params.total === null || params.total <= 0 ? null : Math.min(1, params.loaded / params.total),
    }),
    showError: assign({ error: (_, params: { error: unknown }) => downloadErrorMessage(params.error) }),
  },
  delays: {
    // Spec §9: success notices hide after 2 s.
    NOTICE_MS: 2000,
  },
}).createMachine({
  id: 'invoiceDownload',
  meta: {
    title: 'Descarga de facturas adelantadas',
    events: {
      'download.start': '«Descargar seleccionados»',
      'notice.dismiss': 'Cierra el aviso',
      'xstate.after.NOTICE_MS': 'Pasan 2 segundos',
      'download.progress': 'Avanza la descarga',
      'xstate.done.actor.downloadInvoices': 'El servidor entrega el ZIP',
      'xstate.error.actor.downloadInvoices': 'El servidor rechaza la descarga o no responde',
    },
    guards: {
      validSelection:
        'Hay al menos una factura seleccionada y no más de las permitidas (100 facturas en el ZIP).',
    },
  },
  description:
    'En «Resumen de tus Facturas Adelantadas» el proveedor selecciona facturas (o «Seleccionar todos») y con ' +
    '«Descargar seleccionados» obtiene un ZIP con el XML del CFDI, tal como se importó, y un PDF de cada una. El ' +
    'botón está deshabilitado sin selección, con más de 100 facturas y mientras hay una descarga en curso, que ' +
    'muestra su avance. El servidor entrega solo facturas adelantadas (En trámite o Pagada) de la propia empresa; ' +
    'si falla o no responde se muestra el motivo y la selección se conserva.',
  context: { progress: null, count: 0, error: null },
  initial: 'ready',
  states: {
    ready: {
      meta: { label: 'Lista para descargar' },
      initial: 'idle',
      on: {
        'download.start': {
          guard: 'validSelection',
          target: 'downloading',
          actions: { type: 'begin', params: ({ event }) => ({ count: event.invoiceIds.length }) },
        },
      },
      states: {
        idle: { meta: { label: 'Sin aviso' } },
        done: {
          meta: { label: 'Descarga terminada' },
          after: { NOTICE_MS: 'idle' },
          on: { 'notice.dismiss': 'idle' },
        },
        failed: {
          meta: { label: 'Error al descargar' },
          on: { 'notice.dismiss': 'idle' },
        },
      },
    },
    downloading: {
      meta: { label: 'Descargando' },
      tags: ['busy'],
      on: {
        'download.progress': {
          actions: {
            type: 'keepProgress',
            params: ({ event }) => ({ loaded: event.loaded, total: event.total }),
          },
        },
      },
      invoke: {
        id: 'downloadInvoices',
        src: 'downloadInvoices',
        input: ({ event, self }) => ({
          invoiceIds: (event as { invoiceIds: readonly number[] }).invoiceIds,
          onProgress: ({ loaded, total }) => self.send({ type: 'download.progress', loaded, total }),
        }),
        onDone: {
          target: 'ready.done',
          actions: {
            type: 'saveZip',
            params: ({ context, event }) => ({ blob: event.output, count: context.count }),
          },
        },
        onError: {
          target: 'ready.failed',
          actions: { type: 'showError', params: ({ event }) => ({ error: event.error }) },
        },
      },
    },
  },
});
