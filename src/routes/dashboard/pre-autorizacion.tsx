import { useInfiniteQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { paths } from '../../domain/paths';
import { readPreAuthorization } from '../../stores/pre-authorization.store';
import { CORPORATE_SECTIONS } from '../../views/dashboard/dashboard-sections';
import { useInvoicePages } from '../../views/invoices/invoice-pages';
import { PreAuthorizationPage } from '../../views/quotation/pre-authorization-page';
import { wireBulkAuthorizationMachine } from '../-bulk-authorization-machines';
import {
  preAuthorizationListQueryOptions,
  wirePreAuthorizationMachine,
} from '../-corporate-quotation-machines';
import { requireCorporate } from './-guards';

const HELP = CORPORATE_SECTIONS.find((section) => section.path === paths.preAuthorization)?.help ?? '';

// Spec §2: the corporate's pre-authorization; the saved work (5 minutes) comes back on reload.
export const Route = createFileRoute('/dashboard/pre-autorizacion')({
  // The list's search lives in the URL (so a link, or a test, can narrow it).
  validateSearch: (search: Record<string, unknown>): { search?: string } =>
    typeof search.search === 'string' && search.search ? { search: search.search } : {},
  beforeLoad: () => requireCorporate(),
  component: PreAuthorizationRoute,
});

function PreAuthorizationRoute() {
  const options = preAuthorizationListQueryOptions(Route.useSearch().search ?? '');
  const list = useInvoicePages(useInfiniteQuery(options), options.queryKey);
  const machine = useMemo(() => wirePreAuthorizationMachine(), []);
  const bulkMachine = useMemo(() => wireBulkAuthorizationMachine(), []);
  // Read once when the page opens; the machine owns the work from then on.
  const [input] = useState(() => readPreAuthorization());
  return (
    <PreAuthorizationPage help={HELP} list={list} machine={machine} input={input} bulkMachine={bulkMachine} />
  );
}
