import type { EventObject } from 'xstate';
import { invoiceDownloadMachine } from '../../src/machines/invoice-download.machine';
import type { MachineModel } from './harness/model';

/** An access token the server no longer accepts. */
export const SESSION_ENDED_BODY = {
  detail: 'Las credenciales de autenticación no se proveyeron o expiraron.',
};

export const SERVER_ERROR_BODY = { detail: 'Error interno del servidor. Por favor, intenta de nuevo.' };

/**
 * The executor selects the first listed invoice and clicks 'Descargar seleccionados', so the page sends one
 * real id; the guard only reads how many (1..100), which is what this payload stands for.
 */
export const ONE_INVOICE = [1] as const;

// Download: one selected invoice. Progress: half of a body whose size the server announced. Outcomes: the ZIP,
// a server failure, no response, the session over.
export const invoiceDownloadModel: MachineModel = {
  id: 'invoice-download',
  machine: invoiceDownloadMachine,
  events: [
    { type: 'download.start', invoiceIds: ONE_INVOICE },
    { type: 'download.progress', loaded: 1, total: 2 },
    { type: 'xstate.done.actor.downloadInvoices', output: new Blob([]) },
    { type: 'xstate.error.actor.downloadInvoices', error: { status: 500, body: SERVER_ERROR_BODY } },
    { type: 'xstate.error.actor.downloadInvoices', error: { status: 0, body: null } },
    { type: 'xstate.error.actor.downloadInvoices', error: { status: 401, body: SESSION_ENDED_BODY } },
    { type: 'notice.dismiss' },
  ] as readonly EventObject[],
};
