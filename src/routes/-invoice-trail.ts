import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import type { Invoice } from '../domain/schemas/invoices';
import { invoiceEventsQueryOptions, invoiceProofQueryOptions } from '../services/invoice-queries';
import type { InvoiceTrail } from '../views/invoices/audit-trail-drawer';

// The audit-trail drawer of an invoice list page: which invoice is open and its events, read when opened.
// (The '-' prefix keeps this file out of the route tree.)

export function useInvoiceTrail(): InvoiceTrail {
  const [invoice, setInvoice] = useState<Invoice | null>(null);
  const trail = useQuery({ ...invoiceEventsQueryOptions(invoice?.id ?? 0), enabled: invoice !== null });
  // The proof is shown beside the trail when it arrives; the trail does not wait for it.
  const proof = useQuery({ ...invoiceProofQueryOptions(invoice?.id ?? 0), enabled: invoice !== null });
  return {
    proof: proof.data ?? null,
    invoice,
    state: trail.data ? 'ready' : trail.isError && !trail.isFetching ? 'error' : 'loading',
    items: trail.data ?? [],
    onRetry: () => void trail.refetch(),
    onClose: () => setInvoice(null),
    onOpen: setInvoice,
  };
}
