import { Button, H1 } from '@blueprintjs/core';
import { DocumentIcon, DollarIcon, OfficeIcon } from '@blueprintjs/icons';
import { useMachine } from '@xstate/react';
import { useSnapshot } from 'valtio';
import { invoiceCountText } from '../../domain/list-count';
import { parseMoney } from '../../domain/money';
import type { Indicators, Invoice } from '../../domain/schemas/invoices';
import type { factoringEnrolmentMachine } from '../../machines/factoring-enrolment.machine';
import { canRequestFactoring } from '../../machines/invoice-actions';
import { userStore } from '../../stores/user.store';
import { MoneyFigure } from '../common/money-figure';
import { SectionHelp } from '../dashboard/section-help';
import { AuditTrailDrawer, HistoryButton } from '../invoices/audit-trail-drawer';
import { InvoiceFiltersBar } from '../invoices/invoice-filters-bar';
import type { InvoiceListScreen } from '../invoices/invoice-list-screen';
import { InvoiceTable } from '../invoices/invoice-table';
import { MessageDialog } from '../invoices/message-dialog';
import { StatCard, type StatCardState, SumLeftOut } from '../invoices/stat-card';
import { FactoringDrawer, REQUEST_FACTORING_TEXT } from './factoring-drawer';
import './factoring.css';

export const FACTORING_TITLE = 'Factoraje';

export interface FactoringPageProps {
  help: string;
  /** The factoring list: filters in the URL, the table's pages and the audit trail (no selection). */
  screen: Pick<InvoiceListScreen, 'filters' | 'onFiltersChange' | 'list' | 'trail'>;
  /** The list's first-page indicators: the three summary cards. */
  indicators: StatCardState<Indicators>;
  machine: typeof factoringEnrolmentMachine;
}

/** Spec §2: Facturas, Clientes and Monto total of the list as filtered. */
function SummaryCards({ state }: { state: StatCardState<Indicators> }) {
  return (
    <section className="flujo-stat-cards" aria-label="Indicadores">
      <StatCard id="factoraje-facturas" icon={<DocumentIcon />} label="Facturas" state={state}>
        {(loaded) => invoiceCountText(loaded.count ?? 0, loaded.count_is_estimate === true)}
      </StatCard>
      <StatCard id="factoraje-clientes" icon={<OfficeIcon />} label="Clientes" state={state}>
        {(loaded) => (loaded.count_is_estimate ? <SumLeftOut /> : (loaded.suppliers_customers ?? 0))}
      </StatCard>
      <StatCard id="factoraje-monto" icon={<DollarIcon />} label="Monto total" state={state}>
        {/* The sum of the invoices' peso values (a USD invoice at its CFDI rate). */}
        {(loaded) =>
          loaded.count_is_estimate ? (
            <SumLeftOut />
          ) : (
            <MoneyFigure amount={parseMoney(loaded.total ?? '0')} currency="MXN" />
          )
        }
      </StatCard>
    </section>
  );
}

/**
 * /dashboard/factoraje/ (spec §2, §4): the summary cards, search, period and status filters, the infinite table
 * with 'Solicitar Factoraje' on each invoice that may be factored, the quote panel and the alert dialog.
 */
export function FactoringPage({ help, screen, indicators, machine }: FactoringPageProps) {
  const { filters, onFiltersChange, list, trail } = screen;
  const [state, send] = useMachine(machine);
  const { hasFactoring } = useSnapshot(userStore);
  const busy = state.hasTag('busy') || state.hasTag('drawer');

  function actions(invoice: Invoice) {
    return (
      <>
        {canRequestFactoring(invoice) && (
          <Button
            small
            intent="primary"
            text={REQUEST_FACTORING_TEXT}
            aria-label={`${REQUEST_FACTORING_TEXT} ${invoice.fiscal_folio}`}
            disabled={busy}
            onClick={() => send({ type: 'factoring.request', invoice, hasFactoring })}
          />
        )}{' '}
        <HistoryButton invoice={invoice} trail={trail} />
      </>
    );
  }

  return (
    <section aria-labelledby="factoraje-titulo">
      <H1 id="factoraje-titulo">{FACTORING_TITLE}</H1>
      <SectionHelp>{help}</SectionHelp>
      <SummaryCards state={indicators} />
      <InvoiceFiltersBar filters={filters} onChange={onFiltersChange} />
      <InvoiceTable {...list} label="Facturas para factoraje" selection={null} renderActions={actions} />
      <FactoringDrawer
        state={state}
        onChoose={(instalments) => send({ type: 'factoring.choose', instalments })}
        onTransfer={() => send({ type: 'factoring.transfer' })}
        onRetry={() => send({ type: 'factoring.retry' })}
        onClose={() => send({ type: 'factoring.close' })}
      />
      <MessageDialog
        isOpen={state.hasTag('dialog')}
        loading={state.matches('enrolling')}
        variant={state.context.dialog?.messageType ?? 'info'}
        message={state.context.dialog?.message ?? null}
        onClose={() => send({ type: 'dialog.close' })}
      />
      <AuditTrailDrawer
        invoice={trail.invoice}
        proof={trail.proof}
        state={trail.state}
        items={trail.items}
        onRetry={trail.onRetry}
        onClose={trail.onClose}
      />
    </section>
  );
}
