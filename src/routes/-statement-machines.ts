import { fromPromise } from 'xstate';
import { MAX_REPORT_INVOICES } from '../domain/statements';
import {
  type DownloadInput,
  invoiceDownloadMachine,
  isDownloadableSelection,
} from '../machines/invoice-download.machine';
import { saveBlob } from '../services/advanced-invoices.service';
import { downloadStatementReport } from '../services/statements.service';
import { userStore } from '../stores/user.store';

// The account statement's wiring of the download machine (decision 0037): the same workflow as the advanced
// invoices' ZIP, with the report call of the current role, its own limit and the server's file name.
// (The '-' prefix keeps this file out of the route tree.)

export const wiredStatementReportMachine = invoiceDownloadMachine.provide({
  actors: {
    downloadInvoices: fromPromise<Blob, DownloadInput>(({ input }) =>
      downloadStatementReport(userStore.role, input.invoiceIds, input.onProgress),
    ),
  },
  guards: {
    validSelection: ({ event }) =>
      event.type === 'download.start' && isDownloadableSelection(event.invoiceIds, MAX_REPORT_INVOICES),
  },
  actions: {
    // The report is a File named by the server ('estado-de-cuenta-2026-11-22.xlsx').
    saveZip: (_, { blob }) => saveBlob(blob, blob instanceof File ? blob.name : 'estado-de-cuenta.xlsx'),
  },
});
