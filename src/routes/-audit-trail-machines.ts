import { fromPromise } from 'xstate';
import { AuditTrailQuery } from '../domain/schemas/audit-trail';
import { fieldErrors } from '../domain/schemas/validate';
import { type DownloadInput, invoiceDownloadMachine } from '../machines/invoice-download.machine';
import { saveBlob } from '../services/advanced-invoices.service';
import { type AuditRange, downloadAuditTrail } from '../services/audit-trail.service';
import { userStore } from '../stores/user.store';

// The audit trail panel's wiring of the download machine (decision 0044): the same workflow as the statement's
// report and the advanced invoices' ZIP, over a date range instead of a selection. The panel holds the range
// and passes how to read it; 'download.start' carries no invoices. (The '-' prefix keeps this file out of the
// route tree.)

/** The download machine for the current role's export of the range `range()` reads when the button is pressed. */
export function auditTrailDownloadMachine(range: () => AuditRange): typeof invoiceDownloadMachine {
  return invoiceDownloadMachine.provide({
    actors: {
      downloadInvoices: fromPromise<Blob, DownloadInput>(({ input }) =>
        downloadAuditTrail(userStore.role, range(), input.onProgress),
      ),
    },
    guards: {
      // The server's own rules (one struct for both): both dates, in order, within the cap.
      validSelection: ({ event }) =>
        event.type === 'download.start' && Object.keys(fieldErrors(AuditTrailQuery, range())).length === 0,
    },
    actions: {
      saveZip: (_, { blob }) => saveBlob(blob, blob instanceof File ? blob.name : 'bitacora-auditoria.xlsx'),
    },
  });
}
