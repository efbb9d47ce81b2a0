import { infiniteQueryOptions, type QueryClient, queryOptions } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { InvoiceStatus, type InvoiceStatusCode } from '../domain/invoice-status';
import type { ForwardPaymentQuote, InvoicePage, MessageResponse } from '../domain/schemas/invoices';
import {
  type AuthorizationRequestInput,
  authorizationRequestMachine,
} from '../machines/authorization-request.machine';
import { type ApproveForwardPaymentInput, forwardPaymentMachine } from '../machines/forward-payment.machine';
import { boundedPageParams } from '../services/infinite-pages';
import {
  approveForwardPayment,
  forwardPaymentQuote,
  invoiceEvents,
  listAlliances,
  requestPayment,
} from '../services/providers.service';
import type { Role } from '../stores/user.store';
import type { InvoiceListFilters } from '../views/invoices/invoice-filters';
import { applyStatusChange, type LoadedPages } from '../views/invoices/invoice-list-update';
import { ADVANCED_INVOICES_KEY, wiredInvoiceDownloadMachine } from './-advanced-invoices-machines';
import { headerSummaryQueryOptions } from './-dashboard-queries';

// The pronto-pago list's queries and its machines (two advances, the ZIP download) wired to the real calls
// and the query cache. (The '-' prefix keeps this file out of the route tree.)

/** Spec §6: list cache keys include the user's role. */
export function alliancesQueryKey(role: Role, filters: InvoiceListFilters) {
  return ['providers', 'alliances', role, filters] as const;
}

/** Every cached alliances list of this role, whatever its filters. */
function alliancesKeyPrefix(role: Role) {
  return ['providers', 'alliances', role] as const;
}

/**
 * Pages of 25 (spec §9), newest emission first (the server's order), bounded like every infinite list
 * (`boundedPageParams`); the next page exists while the rows up to the last page are fewer than count.
 */
export function alliancesQueryOptions(role: Role, filters: InvoiceListFilters) {
  return infiniteQueryOptions({
    queryKey: alliancesQueryKey(role, filters),
    queryFn: ({ pageParam }) => listAlliances(filters, pageParam),
    ...boundedPageParams,
  });
}

export function invoiceEventsQueryOptions(invoiceId: number) {
  return queryOptions({
    queryKey: ['invoices', invoiceId, 'events'] as const,
    queryFn: () => invoiceEvents(invoiceId),
  });
}

/** The page's current role and filters, read when an action ends (the URL may have changed meanwhile). */
export type ListScope = () => { role: Role; filters: InvoiceListFilters };

function statusChanged(
  queryClient: QueryClient,
  scope: ListScope,
  invoiceId: number,
  status: InvoiceStatusCode,
) {
  const { role, filters } = scope();
  queryClient.setQueryData<LoadedPages<InvoicePage>>(alliancesQueryKey(role, filters), (data) =>
    data ? applyStatusChange(data, invoiceId, status, filters.status) : data,
  );
  refresh(queryClient, scope, invoiceId);
}

function refresh(queryClient: QueryClient, scope: ListScope, invoiceId: number | null) {
  // The local update shows at once; reading the server again confirms it (and any other change).
  void queryClient.invalidateQueries({ queryKey: alliancesKeyPrefix(scope().role) });
  // An advance puts the invoice on 'Resumen de tus Facturas Adelantadas'.
  void queryClient.invalidateQueries({ queryKey: ADVANCED_INVOICES_KEY });
  // The dashboard header's figures come from the same list (its indicators).
  void queryClient.invalidateQueries({ queryKey: headerSummaryQueryOptions(scope().role, true).queryKey });
  if (invoiceId !== null) void queryClient.invalidateQueries({ queryKey: ['invoices', invoiceId, 'events'] });
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
        refreshList: ({ context }) => refresh(queryClient, scope, context.invoiceId),
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
        refreshList: ({ context }) => refresh(queryClient, scope, context.invoiceId),
      },
    }),
    invoiceDownload: wiredInvoiceDownloadMachine,
  };
}

export type ProntoPagoMachines = ReturnType<typeof wireProntoPagoMachines>;
