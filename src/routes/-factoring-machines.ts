import type { QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { InvoiceStatus } from '../domain/invoice-status';
import type { FactoringQuote } from '../domain/schemas/factoring';
import type { InvoicePage, MessageResponse } from '../domain/schemas/invoices';
import {
  factoringEnrolmentMachine,
  type TransferFactoringInput,
} from '../machines/factoring-enrolment.machine';
import { invalidateInvoiceLists, invoiceListQueryOptions } from '../services/invoice-queries';
import { applyStatusChange, type LoadedPages } from '../views/invoices/invoice-list-update';
import type { ListScope } from './-pronto-pago-machines';

// The factoring machine wired to the real calls and the query cache: the factoring page's rows and the
// dashboard header's enrolment card. (The '-' prefix keeps this file out of the route tree.)

// The calls load on the first click: the header's enrolment card is part of every dashboard page's bundle.
const calls = () => import('../services/factoring.service');

const actors = {
  enableFactoring: fromPromise<MessageResponse>(async () => (await calls()).enableFactoring()),
  loadQuote: fromPromise<FactoringQuote, { invoiceId: number }>(async ({ input }) =>
    (await calls()).factoringQuote(input.invoiceId),
  ),
  transferFactoring: fromPromise<MessageResponse, TransferFactoringInput>(async ({ input }) =>
    (await calls()).requestFactoring(input.request, input.idempotencyKey),
  ),
};

/** The machine of the factoring page: a transferred row becomes FACTORING in the list it was clicked in (spec §4). */
export function wireFactoringMachine(queryClient: QueryClient, scope: ListScope) {
  return factoringEnrolmentMachine.provide({
    actors,
    actions: {
      markFactoring: (_, { invoiceId }) => {
        const { role, filters } = scope();
        queryClient.setQueryData<LoadedPages<InvoicePage>>(
          invoiceListQueryOptions(role, 'factoring', filters).queryKey,
          (data) =>
            data ? applyStatusChange(data, invoiceId, InvoiceStatus.FACTORING, filters.status) : data,
        );
        // The local change shows at once; reading the server again confirms it and the line's new figures.
        void invalidateInvoiceLists(queryClient);
      },
      refreshList: () => void invalidateInvoiceLists(queryClient),
    },
  });
}

/** The header card's machine: only the enable request; its answer re-reads has_factoring with the lists. */
export function wireFactoringEnrolmentCard(queryClient: QueryClient) {
  return factoringEnrolmentMachine.provide({
    actors,
    actions: { refreshList: () => void invalidateInvoiceLists(queryClient) },
  });
}

export type FactoringMachine = ReturnType<typeof wireFactoringMachine>;
