import { H1 } from '@blueprintjs/core';
import { paths } from '../../domain/paths';
import { PROVIDER_SECTIONS } from '../dashboard/dashboard-sections';
import { SectionHelp } from '../dashboard/section-help';
import { AuditTrailDrawer, HistoryButton } from '../invoices/audit-trail-drawer';
import { AuditTrailExportPanel, type AuditTrailExportPanelProps } from '../invoices/audit-trail-export-panel';
import { InvoiceFiltersBar } from '../invoices/invoice-filters-bar';
import type { InvoiceListScreen } from '../invoices/invoice-list-screen';
import { InvoiceTable } from '../invoices/invoice-table';

const SECTION = PROVIDER_SECTIONS.find((section) => section.path === paths.receivables);

/**
 * /dashboard/cuentas-por-cobrar/ (spec §2): the invoices the provider is still owed, with search (500 ms) and
 * the period of issue; cancelled, advanced and factored invoices are not listed (decision 0038).
 */
export function ReceivablesPage({
  screen,
  auditTrail,
}: {
  screen: InvoiceListScreen;
  /** The audit trail export's download machine (src/routes/-audit-trail-machines.ts); the panel shows with it. */
  auditTrail?: AuditTrailExportPanelProps['machineFor'];
}) {
  const { filters, onFiltersChange, list, trail } = screen;
  return (
    <section aria-labelledby="cuentas-por-cobrar-titulo" className="flujo-receivables">
      <H1 id="cuentas-por-cobrar-titulo">{SECTION?.label ?? 'Cuentas por cobrar'}</H1>
      {SECTION && <SectionHelp>{SECTION.help}</SectionHelp>}
      <InvoiceFiltersBar filters={filters} onChange={onFiltersChange} statusOptions={null} />
      <InvoiceTable
        label="Cuentas por cobrar"
        {...list}
        selection={null}
        renderActions={(invoice) => <HistoryButton invoice={invoice} trail={trail} />}
      />
      <AuditTrailDrawer
        invoice={trail.invoice}
        proof={trail.proof}
        state={trail.state}
        items={trail.items}
        onRetry={trail.onRetry}
        onClose={trail.onClose}
      />
      {auditTrail && <AuditTrailExportPanel accountRole="provider" machineFor={auditTrail} />}
    </section>
  );
}
