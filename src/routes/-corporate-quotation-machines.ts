import { infiniteQueryOptions, type QueryClient } from '@tanstack/react-query';
import { fromPromise } from 'xstate';
import { paths } from '../domain/paths';
import type { PreAuthorizationWork } from '../domain/pre-authorization';
import type {
  AcceptedQuotationResponse,
  CorporateQuotation,
  PreApprovedQuotationResponse,
  QuotationLine,
  QuotationOutcomeResponse,
} from '../domain/schemas/corporates';
import { preAuthorizationMachine } from '../machines/pre-authorization.machine';
import { type KeyedLines, quotationMachine } from '../machines/quotation.machine';
import {
  acceptQuotation,
  listPreAuthorization,
  payProviders,
  preApproveQuotation,
  quoteInvoices,
  rejectQuotation,
} from '../services/corporates.service';
import { boundedPageParams } from '../services/infinite-pages';
import { INVOICES_KEY, invalidateInvoiceLists } from '../services/invoice-queries';
import { navigateTo } from '../services/navigation';
import {
  clearPreAuthorization,
  readPreAuthorization,
  savePreAuthorization,
} from '../stores/pre-authorization.store';

// The corporate pre-authorization and quotation pages' machines, wired to the corporate calls, the
// pre-authorization store and navigation (decision 0024). (The '-' prefix keeps this file out of the route tree.)

/** The received invoices the corporate may still pre-authorize, 25 a page, under the one invoice-list root. */
export function preAuthorizationListQueryOptions(search: string) {
  return infiniteQueryOptions({
    queryKey: [...INVOICES_KEY, 'corporate', 'pre-authorization', search] as const,
    queryFn: ({ pageParam }) => listPreAuthorization(search, pageParam),
    ...boundedPageParams,
  });
}

/** The saved work as the quotation's lines: each invoice with its date. */
export function savedQuotationLines(work: PreAuthorizationWork): QuotationLine[] {
  return work.invoices.map((item) => ({ invoice_id: item.id, payment_date: item.paymentDate ?? '' }));
}

/** The pre-authorization machine, started from the saved work (older than 5 minutes: empty). */
export function wirePreAuthorizationMachine() {
  return preAuthorizationMachine.provide({
    actions: {
      persist: (_, work) => savePreAuthorization({ invoices: work.invoices, savedAt: work.savedAt }),
      goToQuotation: () => navigateTo(paths.quotation),
    },
  });
}

/** The quotation machine; its lines come from the saved work (readPreAuthorization at the page's start). */
export function wireQuotationMachine(queryClient: QueryClient) {
  return quotationMachine.provide({
    actors: {
      quote: fromPromise<CorporateQuotation, { lines: QuotationLine[] }>(({ input }) =>
        quoteInvoices(input.lines),
      ),
      preApprove: fromPromise<PreApprovedQuotationResponse, KeyedLines>(({ input }) =>
        preApproveQuotation(input.lines, input.idempotencyKey),
      ),
      accept: fromPromise<AcceptedQuotationResponse, KeyedLines>(({ input }) =>
        acceptQuotation(input.lines, input.idempotencyKey),
      ),
      payProviders: fromPromise<QuotationOutcomeResponse, KeyedLines>(({ input }) =>
        payProviders(input.lines, input.idempotencyKey),
      ),
      reject: fromPromise<QuotationOutcomeResponse, KeyedLines>(({ input }) =>
        rejectQuotation(
          input.lines.map((line) => ({ invoice_id: line.invoice_id })),
          input.idempotencyKey,
        ),
      ),
    },
    actions: {
      // The saved work follows a removed line, so going back to pre-authorization shows the same selection.
      saveLines: (_, { lines }) => {
        const work = readPreAuthorization();
        const kept = new Set(lines.map((line) => line.invoice_id));
        savePreAuthorization({
          invoices: work.invoices.filter((item) => kept.has(item.id)),
          savedAt: Date.now(),
        });
      },
      clearSaved: () => clearPreAuthorization(),
      goToPreAuthorization: () => navigateTo(paths.preAuthorization, { replace: true }),
      refreshLists: () => void invalidateInvoiceLists(queryClient),
    },
  });
}
