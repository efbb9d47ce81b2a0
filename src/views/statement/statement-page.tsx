import { Button, ButtonGroup, Classes, H1, HTMLTable, Tag } from '@blueprintjs/core';
import { BankAccountIcon, CalendarIcon, DocumentIcon, DollarIcon, OfficeIcon } from '@blueprintjs/icons';
import { useMachine } from '@xstate/react';
import { useState } from 'react';
import { formatInvoiceAmount, formatInvoiceMxnValue, isConverted } from '../../domain/invoice-money';
import { CORPORATE_STATUS_MEANINGS, InvoiceStatus } from '../../domain/invoice-status';
import { invoiceCountText } from '../../domain/list-count';
import { formatMxn, parseMoney, sumMoney } from '../../domain/money';
import type { Indicators, Invoice } from '../../domain/schemas/invoices';
import type { StatementMovement } from '../../domain/schemas/statements';
import { MAX_REPORT_INVOICES, MOVEMENT_STATUS_LABELS } from '../../domain/statements';
import type { invoiceDownloadMachine } from '../../machines/invoice-download.machine';
import type { Role } from '../../stores/user.store';
import { DownloadSelectedButton, DownloadStatus } from '../advanced-invoices/invoice-download-controls';
import { MoneyFigure } from '../common/money-figure';
import { SectionHelp } from '../dashboard/section-help';
import { AuditTrailExportPanel, type AuditTrailExportPanelProps } from '../invoices/audit-trail-export-panel';
import {
  amountColumn,
  corporateStatusColumn,
  dateColumn,
  folioColumn,
  type InvoiceColumn,
  providerStatusColumn,
  shownFolio,
  textColumn,
} from '../invoices/invoice-columns';
import { InvoiceFiltersBar } from '../invoices/invoice-filters-bar';
import { formatDisplayDate } from '../invoices/invoice-format';
import type { InvoiceListScreen } from '../invoices/invoice-list-screen';
import { allSelected, toggleAll, toggleOne } from '../invoices/invoice-selection';
import { InvoiceTable, SELECT_ALL_TEXT } from '../invoices/invoice-table';
import { SidePanel } from '../invoices/side-panel';
import { StatCard, type StatCardState, SumLeftOut } from '../invoices/stat-card';
import { MonthlyStatementsPanel, type MonthlyStatementsPanelProps } from './monthly-statements-panel';
import '../corporate/corporate.css';
import './statement.css';

export const STATEMENT_TITLE = 'Estado de cuenta';
export const MOVEMENTS_TEXT = 'Movimientos';
/** The actions column holds one small button, 'Movimientos' the widest. */
const STATEMENT_ACTIONS_WIDTH = '7.5rem';
export const SCHEDULE_TEXT = 'Calendario';
export const NO_MOVEMENTS_TEXT = 'Esta factura no tiene movimientos registrados.';
/** How many cut-off dates the corporate's card shows (the server sends up to six). */
const SHOWN_CUT_OFF_DATES = 3;

/** The first page's indicators as the route read them. */
export type StatementIndicatorsState = StatCardState<Indicators>;

/**
 * A statement row's movements. The table's rows are typed as the shared Invoice; the statement's service checked
 * each page against StatementPage, so a row's `movements` is a valid StatementMovement[] when present.
 */
function movementsOf(invoice: Invoice): readonly StatementMovement[] {
  const movements = (invoice as Invoice & { movements?: unknown }).movements;
  return Array.isArray(movements) ? (movements as StatementMovement[]) : [];
}

function mxn(amount: string | undefined): string {
  return formatMxn(parseMoney(amount ?? '0'));
}

/** What the holder pays Flujo on the next payment date (indicators payment_date and total_by_date, decision 0065). */
export const NEXT_CUT_OFF_TEXT = 'A pagar';
export const NEXT_INSTALMENT_TEXT = 'Próxima parcialidad';

/** A line under the card's figure; the corporate's card lists the date already, the provider's names it. */
function NextPayment({
  indicators,
  text,
  withDate,
}: {
  indicators: Indicators;
  text: string;
  withDate: boolean;
}) {
  if (!indicators.payment_date) return null;
  return (
    <span className="flujo-stat-card-line flujo-stat-card-status">
      {text}: {mxn(indicators.total_by_date)}
      {withDate && ` el ${formatDisplayDate(indicators.payment_date)}`}
    </span>
  );
}

/** Provider: invoices, clients, total and the factoring line; corporate: invoices, providers, total, cut-off dates. */
function StatementCards({ role, state }: { role: Role; state: StatementIndicatorsState }) {
  const provider = role === 'provider';
  return (
    <section className="flujo-stat-cards" aria-label="Indicadores">
      <StatCard id="edo-facturas" icon={<DocumentIcon />} label="Facturas" state={state}>
        {(loaded) => invoiceCountText(loaded.count ?? 0, loaded.count_is_estimate === true)}
      </StatCard>
      <StatCard
        id="edo-contrapartes"
        icon={<OfficeIcon />}
        label={provider ? 'Clientes' : 'Proveedores'}
        state={state}
      >
        {(loaded) =>
          loaded.count_is_estimate ? (
            <SumLeftOut />
          ) : (
            ((provider ? loaded.suppliers_customers : loaded.providers) ?? 0)
          )
        }
      </StatCard>
      <StatCard id="edo-monto" icon={<DollarIcon />} label="Monto Total" state={state}>
        {(loaded) =>
          loaded.count_is_estimate ? (
            <SumLeftOut />
          ) : (
            <MoneyFigure amount={parseMoney(loaded.total ?? '0')} currency="MXN" />
          )
        }
      </StatCard>
      {provider ? (
        <StatCard id="edo-linea" icon={<BankAccountIcon />} label="Línea disponible" state={state}>
          {(loaded) =>
            parseMoney(loaded.credit_line ?? '0') > 0 ? (
              <>
                <span className="flujo-stat-card-line">
                  <MoneyFigure amount={parseMoney(loaded.available_credit ?? '0')} currency="MXN" />
                </span>
                <span className="flujo-stat-card-status">
                  Usado {mxn(loaded.credit_used)} de {mxn(loaded.credit_line)}
                </span>
                <NextPayment indicators={loaded} text={NEXT_INSTALMENT_TEXT} withDate />
              </>
            ) : (
              <span className="flujo-stat-card-status">Sin línea de factoraje</span>
            )
          }
        </StatCard>
      ) : (
        <StatCard id="edo-corte" icon={<CalendarIcon />} label="Próximas fechas de corte" state={state}>
          {(loaded) =>
            (loaded.cut_off_dates ?? []).length === 0 ? (
              <span className="flujo-stat-card-status">Sin pagos próximos</span>
            ) : (
              <>
                <span className="flujo-stat-card-dates">
                  {(loaded.cut_off_dates ?? [])
                    .slice(0, SHOWN_CUT_OFF_DATES)
                    .map(formatDisplayDate)
                    .join(' · ')}
                </span>
                <NextPayment indicators={loaded} text={NEXT_CUT_OFF_TEXT} withDate={false} />
              </>
            )
          }
        </StatCard>
      )}
    </section>
  );
}

/** The columns each role reads: the provider names its client, the corporate its provider and its cut-off date. */
function statementColumns(role: Role): readonly InvoiceColumn[] {
  return role === 'provider'
    ? [
        folioColumn,
        textColumn('client', 'Cliente', (invoice) => invoice.receiver_name),
        dateColumn('emission', 'Fecha de emisión', (invoice) => invoice.date_of_emission, 'secondary'),
        dateColumn('payment', 'Fecha de pago', (invoice) => invoice.payment_date, 'secondary'),
        amountColumn,
        providerStatusColumn,
      ]
    : [
        corporateStatusColumn,
        folioColumn,
        textColumn('client', 'Proveedor', (invoice) => invoice.emitter_name),
        dateColumn('emission', 'Fecha de emisión', (invoice) => invoice.date_of_emission, 'secondary'),
        dateColumn('payment', 'Fecha de corte', (invoice) => invoice.payment_date),
        amountColumn,
      ];
}

function pendingTotal(movements: readonly StatementMovement[]): number {
  return sumMoney(
    movements.filter((item) => item.status === 'pending').map((item) => parseMoney(item.amount)),
  );
}

/** The right-side drawer with a row's movements: a factored invoice's transfer, fee and instalment schedule. */
function MovementsDrawer({
  invoice,
  role,
  onClose,
}: {
  invoice: Invoice | null;
  role: Role;
  onClose: () => void;
}) {
  const movements = invoice ? movementsOf(invoice) : [];
  const factored = invoice?.status === InvoiceStatus.FACTORING;
  const title = factored ? 'Calendario de pagos' : 'Movimientos de la factura';
  return (
    <SidePanel
      title={title}
      isOpen={invoice !== null}
      busy={false}
      onClose={onClose}
      size="min(520px, 100vw)"
      footer={<Button text="Cerrar" onClick={onClose} />}
    >
      {invoice && (
        <>
          <p className={Classes.TEXT_MUTED}>
            Factura {shownFolio(invoice)} ·{' '}
            {role === 'provider' ? invoice.receiver_name : invoice.emitter_name}
            {' · '}
            {formatInvoiceAmount(invoice)}
          </p>
          {/* The movements are in pesos: a dollar invoice says which peso value they come from. */}
          {isConverted(invoice) && <p className={Classes.TEXT_MUTED}>{formatInvoiceMxnValue(invoice)}</p>}
          {role === 'corporate' && (
            <p className={Classes.TEXT_MUTED}>{CORPORATE_STATUS_MEANINGS[invoice.status]}</p>
          )}
          {movements.length === 0 ? (
            <p>{NO_MOVEMENTS_TEXT}</p>
          ) : (
            <>
              <HTMLTable compact striped className="flujo-movements">
                <caption className="flujo-visually-hidden">{title}</caption>
                <thead>
                  <tr>
                    <th scope="col">Fecha</th>
                    <th scope="col">Concepto</th>
                    <th scope="col" className="flujo-cell-amount">
                      Monto
                    </th>
                    <th scope="col">Estado</th>
                  </tr>
                </thead>
                <tbody>
                  {movements.map((item) => (
                    <tr key={`${item.kind}-${item.date}-${item.concept}`}>
                      <td>{formatDisplayDate(item.date)}</td>
                      <td>{item.concept}</td>
                      <td className="flujo-cell-amount">{mxn(item.amount)}</td>
                      <td>
                        <Tag minimal intent={item.status === 'done' ? 'success' : 'warning'}>
                          {MOVEMENT_STATUS_LABELS[item.status]}
                        </Tag>
                      </td>
                    </tr>
                  ))}
                </tbody>
              </HTMLTable>
              <p className="flujo-movements-pending">
                Pendiente: <strong>{formatMxn(pendingTotal(movements))}</strong>
              </p>
            </>
          )}
        </>
      )}
    </SidePanel>
  );
}

export interface StatementPageProps {
  role: Role;
  help: string;
  /** The download machine wired to the report call (src/routes/-statement-machines.ts). */
  machine: typeof invoiceDownloadMachine;
  screen: Pick<InvoiceListScreen, 'filters' | 'onFiltersChange' | 'list' | 'selection' | 'onSelectionChange'>;
  indicators: StatementIndicatorsState;
  /** The audit trail export's download machine (src/routes/-audit-trail-machines.ts); the panel shows with it. */
  auditTrail?: AuditTrailExportPanelProps['machineFor'];
  /** 'Estados de cuenta mensuales' (decision 0071): the months and their download machine; the panel shows with it. */
  monthly?: Pick<MonthlyStatementsPanelProps, 'state' | 'machineFor'>;
}

/**
 * /dashboard/estado-de-cuenta/ (spec §2, both roles): the indicators, search and period filters, the infinite
 * table with selection, 'Seleccionar todos' and 'Descargar seleccionados' (the XLSX report, with its progress),
 * and each row's movements (a factored invoice's schedule) in a drawer.
 */
export function StatementPage({
  role,
  help,
  machine,
  screen,
  indicators,
  auditTrail,
  monthly,
}: StatementPageProps) {
  const [state, send] = useMachine(machine);
  const [opened, setOpened] = useState<Invoice | null>(null);
  const { filters, onFiltersChange, list, selection, onSelectionChange: setSelection } = screen;
  const ids = list.rows.map((row) => row.id);
  const selectedIds = [...selection];

  return (
    <section aria-labelledby="estado-de-cuenta-titulo" className="flujo-statement">
      <H1 id="estado-de-cuenta-titulo">{STATEMENT_TITLE}</H1>
      {help && <SectionHelp>{help}</SectionHelp>}
      <StatementCards role={role} state={indicators} />
      <InvoiceFiltersBar filters={filters} onChange={onFiltersChange} statusOptions={null} />
      <ButtonGroup className="flujo-invoice-toolbar">
        <Button
          text={SELECT_ALL_TEXT}
          disabled={ids.length === 0}
          aria-pressed={allSelected(selection, ids)}
          onClick={() => setSelection((current) => toggleAll(current, ids))}
        />
        <DownloadSelectedButton state={state} send={send} invoiceIds={selectedIds} />
      </ButtonGroup>
      <DownloadStatus
        state={state}
        send={send}
        selectedCount={selectedIds.length}
        kind="report"
        maxInvoices={MAX_REPORT_INVOICES}
      />
      <InvoiceTable
        label={STATEMENT_TITLE}
        {...list}
        selection={selection}
        onToggleRow={(id) => setSelection((current) => toggleOne(current, id))}
        columns={statementColumns(role)}
        // One button ('Movimientos' or 'Calendario'): the room of two would leave 'Proveedor' three characters
        // wide at 1024 px.
        actionsWidth={STATEMENT_ACTIONS_WIDTH}
        renderActions={(invoice) => (
          <Button
            size="small"
            variant="outlined"
            text={invoice.status === InvoiceStatus.FACTORING ? SCHEDULE_TEXT : MOVEMENTS_TEXT}
            aria-label={`${invoice.status === InvoiceStatus.FACTORING ? SCHEDULE_TEXT : MOVEMENTS_TEXT} de la factura ${shownFolio(invoice)}`}
            aria-haspopup="dialog"
            onClick={() => setOpened(invoice)}
          />
        )}
      />
      <MovementsDrawer invoice={opened} role={role} onClose={() => setOpened(null)} />
      {monthly && <MonthlyStatementsPanel role={role} {...monthly} />}
      {auditTrail && <AuditTrailExportPanel accountRole={role} machineFor={auditTrail} />}
    </section>
  );
}
