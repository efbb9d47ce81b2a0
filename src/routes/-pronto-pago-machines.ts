import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { InvoiceStatus, type InvoiceStatusCode } from '../domain/invoice-status';
import type { ForwardPaymentQuote, InvoicePage, MessageResponse } from '../domain/schemas/invoices';
import {
  type AuthorizationRequestInput,
  authorizationRequestMachine,
} from '../machines/authorization-request.machine';
import { type ApproveForwardPaymentInput, forwardPaymentMachine } from '../machines/forward-payment.machine';
import { alliancesQueryOptions, invalidateInvoiceLists } from '../services/invoice-queries';
import { approveForwardPayment, forwardPaymentQuote, requestPayment } from '../services/providers.service';
import type { Role } from '../stores/user.store';
import type { InvoiceListFilters } from '../views/invoices/invoice-filters';
import { applyStatusChange, type LoadedPages } from '../views/invoices/invoice-list-update';
import { wiredInvoiceDownloadMachine } from './-advanced-invoices-machines';

// The pronto-pago list's machines (two advances, the ZIP download) wired to the real calls
// and the query cache. (The '-' prefix keeps this file out of the route tree.)

/** The page's current role and filters, read when an action ends (the URL may have changed meanwhile). */
export type ListScope = () => { role: Role; filters: InvoiceListFilters };

function statusChanged(
  queryClient: QueryClient,
  scope: ListScope,
  invoiceId: number,
  status: InvoiceStatusCode,
) {
  const { role, filters } = scope();
  queryClient.setQueryData<LoadedPages<InvoicePage>>(alliancesQueryOptions(role, filters).queryKey, (data) =>
    data ? applyStatusChange(data, invoiceId, status, filters.status) : data,
  );
  // The local update shows at once; reading the server again confirms it (and any other change).
  void invalidateInvoiceLists(queryClient);
}

/**
 * The page's machines: the two advances, bound to this router's query cache, and the ZIP download of the
 * selected advanced invoices (the same wiring as 'Resumen de tus Facturas Adelantadas').
 */
export function wireProntoPagoMachines(queryClient: QueryClient, scope: ListScope) {
  return {
    authorizationRequest: authorizationRequestMachine.provide({
      actors: {
        requestAuthorization: fromPromise<MessageResponse, AuthorizationRequestInput>(({ input }) =>
          requestPayment(input.invoiceId, input.idempotencyKey),
        ),
      },
      actions: {
        markRequested: (_, { invoiceId }) =>
          statusChanged(queryClient, scope, invoiceId, InvoiceStatus.PENDING),
        refreshList: () => void invalidateInvoiceLists(queryClient),
      },
    }),
    forwardPayment: forwardPaymentMachine.provide({
      actors: {
        loadQuote: fromPromise<ForwardPaymentQuote, { invoiceId: number }>(({ input }) =>
          forwardPaymentQuote(input.invoiceId),
        ),
        approveForwardPayment: fromPromise<MessageResponse, ApproveForwardPaymentInput>(({ input }) =>
          approveForwardPayment(input.invoiceId, input.idempotencyKey),
        ),
      },
      actions: {
        markAdvanced: (_, { invoiceId }) =>
          statusChanged(queryClient, scope, invoiceId, InvoiceStatus.PROCESS),
        refreshList: () => void invalidateInvoiceLists(queryClient),
      },
    }),
    invoiceDownload: wiredInvoiceDownloadMachine,
  };
}

export type ProntoPagoMachines = ReturnType<typeof wireProntoPagoMachines>;
