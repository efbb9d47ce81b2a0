import { fromPromise } from 'xstate';
import {
  isStatementMonth,
  type MonthlyStatementFile,
  monthlyStatementFileName,
} from '../domain/monthly-statements';
import { MAX_REPORT_INVOICES } from '../domain/statements';
import {
  type DownloadInput,
  invoiceDownloadMachine,
  isDownloadableSelection,
} from '../machines/invoice-download.machine';
import { saveBlob } from '../services/advanced-invoices.service';
import { downloadMonthlyStatement } from '../services/monthly-statements.service';
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

/**
 * The monthly statements' wiring of the same download machine (decision 0071): the panel says which month and
 * format through `file()` before 'download.start', which carries no invoices.
 */
export function monthlyStatementDownloadMachine(
  file: () => MonthlyStatementFile,
): typeof invoiceDownloadMachine {
  return invoiceDownloadMachine.provide({
    actors: {
      downloadInvoices: fromPromise<Blob, DownloadInput>(({ input }) =>
        downloadMonthlyStatement(userStore.role, file(), input.onProgress),
      ),
    },
    guards: {
      validSelection: ({ event }) => event.type === 'download.start' && isStatementMonth(file().month),
    },
    actions: {
      saveZip: (_, { blob }) =>
        saveBlob(
          blob,
          blob instanceof File ? blob.name : monthlyStatementFileName(file().month, file().format),
        ),
    },
  });
}
