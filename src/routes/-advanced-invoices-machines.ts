import { infiniteQueryOptions } from '@tanstack/react-query';
import dayjs from 'dayjs';
import { fromPromise } from 'xstate';
import { advancedInvoicesZipName } from '../domain/advanced-invoices';
import { ISO_DATE_FORMAT } from '../domain/calendar-date';
import { type DownloadInput, invoiceDownloadMachine } from '../machines/invoice-download.machine';
import {
  downloadAdvancedInvoices,
  listAdvancedInvoices,
  saveBlob,
} from '../services/advanced-invoices.service';
import { boundedPageParams } from '../services/infinite-pages';
import { userStore } from '../stores/user.store';
import type { InvoiceListFilters } from '../views/invoices/invoice-filters';

// The advanced-invoices page's wiring: its list query and the download machine with the real call and the
// browser's file save. (The '-' prefix keeps this file out of the route tree.)

/** Every cached advanced-invoices list, whatever its role and filters. */
export const ADVANCED_INVOICES_KEY = ['advanced-invoices'] as const;

/** The provider's advanced invoices, 25 a page, bounded; role and filters are part of the key (spec §6). */
export function advancedInvoicesQueryOptions(filters: InvoiceListFilters) {
  return infiniteQueryOptions({
    queryKey: [...ADVANCED_INVOICES_KEY, userStore.role, filters],
    queryFn: ({ pageParam }) => listAdvancedInvoices(filters, pageParam),
    ...boundedPageParams,
  });
}

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
