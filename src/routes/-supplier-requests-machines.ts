import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { InvoiceStatus } from '../domain/invoice-status';
import type { InvoicePage } from '../domain/schemas/invoices';
import type { AuthorizeRejectResponse } from '../domain/schemas/quotations';
import {
  type AuthorizeRequestsInput,
  type RejectRequestsInput,
  supplierRequestsMachine,
} from '../machines/supplier-requests.machine';
import { authorizeSupplierRequests, rejectSupplierRequests } from '../services/corporates.service';
import { invalidateInvoiceLists, invoiceListQueryOptions } from '../services/invoice-queries';
import { applyStatusChange, type LoadedPages } from '../views/invoices/invoice-list-update';
import type { ListScope } from './-pronto-pago-machines';

// The suppliers' requests page's machine wired to the real calls and the query cache. (The '-' prefix keeps
// this file out of the route tree.)

/** The supplier-requests machine bound to this router's query cache and the page's current list. */
export function wireSupplierRequestsMachine(queryClient: QueryClient, scope: ListScope) {
  return supplierRequestsMachine.provide({
    actors: {
      authorizeRequests: fromPromise<AuthorizeRejectResponse, AuthorizeRequestsInput>(({ input }) =>
        authorizeSupplierRequests(
          input.lines.map((line) => ({ invoice_id: line.invoiceId, payment_date: line.paymentDate })),
          input.idempotencyKey,
        ),
      ),
      rejectRequests: fromPromise<AuthorizeRejectResponse, RejectRequestsInput>(({ input }) =>
        rejectSupplierRequests(
          input.invoiceIds.map((id) =>
            input.reason ? { invoice_id: id, reason: input.reason } : { invoice_id: id },
          ),
          input.idempotencyKey,
        ),
      ),
    },
    actions: {
      removeRows: (_, { invoiceIds, status }) => {
        const { role, filters } = scope();
        // Every row of the list is Solicitado: an answered one no longer matches and leaves at once.
        queryClient.setQueryData<LoadedPages<InvoicePage>>(
          invoiceListQueryOptions(role, 'supplierRequests', filters).queryKey,
          (data) =>
            data
              ? invoiceIds.reduce(
                  (pages, id) => applyStatusChange(pages, id, status, InvoiceStatus.PENDING),
                  data,
                )
              : data,
        );
        // Reading the server again confirms it, and refreshes the summary's figures.
        void invalidateInvoiceLists(queryClient);
      },
      refreshList: () => void invalidateInvoiceLists(queryClient),
    },
  });
}

export type WiredSupplierRequestsMachine = ReturnType<typeof wireSupplierRequestsMachine>;
