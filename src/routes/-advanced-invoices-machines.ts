import dayjs from 'dayjs';
import { fromPromise } from 'xstate';
import { advancedInvoicesZipName } from '../domain/advanced-invoices';
import { ISO_DATE_FORMAT } from '../domain/calendar-date';
import { type DownloadInput, invoiceDownloadMachine } from '../machines/invoice-download.machine';
import { downloadAdvancedInvoices, saveBlob } from '../services/advanced-invoices.service';

// The advanced-invoices page's wiring: the download machine with the real call and the
// browser's file save. (The '-' prefix keeps this file out of the route tree.)

export const wiredInvoiceDownloadMachine = invoiceDownloadMachine.provide({
  actors: {
    downloadInvoices: fromPromise<Blob, DownloadInput>(({ input }) =>
      downloadAdvancedInvoices(input.invoiceIds, input.onProgress),
    ),
  },
  actions: {
    saveZip: (_, { blob }) => saveBlob(blob, advancedInvoicesZipName(dayjs().format(ISO_DATE_FORMAT))),
  },
});
