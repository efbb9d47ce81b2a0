import { H1 } from '@blueprintjs/core';
import { DocumentIcon, DollarIcon, OfficeIcon } from '@blueprintjs/icons';
import { CORPORATE_STATUS_FILTER_OPTIONS } from '../../domain/invoice-status';
import { invoiceCountText } from '../../domain/list-count';
import { parseMoney } from '../../domain/money';
import type { CorporateSummaryIndicators } from '../../domain/schemas/corporates';
import { MoneyFigure } from '../common/money-figure';
import { SectionHelp } from '../dashboard/section-help';
import { AuditTrailDrawer, HistoryButton } from '../invoices/audit-trail-drawer';
import { CORPORATE_SUMMARY_COLUMNS } from '../invoices/invoice-columns';
import { InvoiceFiltersBar } from '../invoices/invoice-filters-bar';
import type { InvoiceListScreen } from '../invoices/invoice-list-screen';
import { InvoiceTable } from '../invoices/invoice-table';
import { StatCard, type StatCardState, SumLeftOut } from '../invoices/stat-card';
import { NextMaturities, type NextMaturitiesState } from './next-maturities';
import './corporate.css';

/** The actions column holds the history icon alone: the 'Acciones' header's width, the rest to Cliente and Descripción. */
const HISTORY_ONLY_ACTIONS_WIDTH = '5.75rem';
export const INVOICE_SUMMARY_TITLE = 'Resumen de facturas';
/** The three indicators as the first page of the summary brought them. */
export type SummaryIndicatorsState = StatCardState<CorporateSummaryIndicators>;

/** Spec §2: Facturas, Clientes and Monto Total (one line per currency the buyer owes in). */
export function SummaryCards({ state }: { state: SummaryIndicatorsState }) {
  return (
    <section className="flujo-stat-cards" aria-label="Indicadores">
      <StatCard id="indicador-facturas" icon={<DocumentIcon />} label="Facturas" state={state}>
        {(loaded) => invoiceCountText(loaded.count, loaded.count_is_estimate === true)}
      </StatCard>
      <StatCard id="indicador-clientes" icon={<OfficeIcon />} label="Clientes" state={state}>
        {(loaded) => (loaded.suppliers_customers === undefined ? <SumLeftOut /> : loaded.suppliers_customers)}
      </StatCard>
      <StatCard id="indicador-monto" icon={<DollarIcon />} label="Monto Total" state={state}>
        {({ total, total_usd }) =>
          total === undefined || total_usd === undefined ? (
            <SumLeftOut />
          ) : (
            <>
              <span className="flujo-stat-card-line">
                <MoneyFigure amount={parseMoney(total)} currency="MXN" />
              </span>
              <span className="flujo-stat-card-line">
                <MoneyFigure amount={parseMoney(total_usd)} currency="USD" />
              </span>
            </>
          )
        }
      </StatCard>
    </section>
  );
}

export interface InvoiceSummaryPageProps {
  help: string;
  /** The summary list: filters in the URL and the table's pages (no selection). */
  screen: Pick<InvoiceListScreen, 'filters' | 'onFiltersChange' | 'list' | 'trail'>;
  indicators: SummaryIndicatorsState;
  /** 'Próximos vencimientos' (decision 0066): the buyer's next due dates; not shown when absent. */
  maturities?: NextMaturitiesState;
}

/**
 * /dashboard/resumen-de-facturas/ (spec §2): the three stat cards, search, period and status filters (without
 * En trámite and Factoraje) and the infinite table of the invoices the corporate received, each status with
 * its buyer-side explanation.
 */
export function InvoiceSummaryPage({ help, screen, indicators, maturities }: InvoiceSummaryPageProps) {
  return (
    <section aria-labelledby="resumen-facturas-titulo" className="flujo-invoice-summary">
      <H1 id="resumen-facturas-titulo">{INVOICE_SUMMARY_TITLE}</H1>
      <SectionHelp>{help}</SectionHelp>
      <SummaryCards state={indicators} />
      {maturities && <NextMaturities state={maturities} />}
      <InvoiceFiltersBar
        filters={screen.filters}
        onChange={screen.onFiltersChange}
        statusOptions={CORPORATE_STATUS_FILTER_OPTIONS}
      />
      <InvoiceTable
        label="Facturas recibidas"
        {...screen.list}
        selection={null}
        columns={CORPORATE_SUMMARY_COLUMNS}
        actionsWidth={HISTORY_ONLY_ACTIONS_WIDTH}
        renderActions={(invoice) => <HistoryButton invoice={invoice} trail={screen.trail} />}
      />
      {/* The buyer reads the same trail and the CFDI's proof (issue 30) as its supplier. */}
      <AuditTrailDrawer
        proof={screen.trail.proof}
        invoice={screen.trail.invoice}
        state={screen.trail.state}
        items={screen.trail.items}
        onRetry={screen.trail.onRetry}
        onClose={screen.trail.onClose}
      />
    </section>
  );
}
