import { createFileRoute } from '@tanstack/react-router';
import { useMemo, useState } from 'react';
import { paths } from '../../domain/paths';
import { readPreAuthorization } from '../../stores/pre-authorization.store';
import { CORPORATE_SECTIONS } from '../../views/dashboard/dashboard-sections';
import { QuotationPage } from '../../views/quotation/quotation-page';
import { savedQuotationLines, wireQuotationMachine } from '../-corporate-quotation-machines';
import { requireCorporate } from './-guards';

const HELP = CORPORATE_SECTIONS.find((section) => section.path === paths.quotation)?.help ?? '';

// Spec §2: the quotation of the saved pre-authorization; without one the machine goes back to pre-authorization.
export const Route = createFileRoute('/dashboard/cotizacion')({
  beforeLoad: () => requireCorporate(),
  component: QuotationRoute,
});

function QuotationRoute() {
  const { queryClient } = Route.useRouteContext();
  const machine = useMemo(() => wireQuotationMachine(queryClient), [queryClient]);
  const [input] = useState(() => ({ lines: savedQuotationLines(readPreAuthorization()) }));
  return <QuotationPage help={HELP} machine={machine} input={input} />;
}
