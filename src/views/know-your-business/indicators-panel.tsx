import { Button, Callout, Classes, HTMLTable, NonIdealState } from '@blueprintjs/core';
import { TimelineBarChart } from '@blueprintjs/icons';
import { type DisplayCurrency, formatMoney, parseMoney } from '../../domain/money';
import type { KnowYourBusinessRow } from '../../domain/schemas/invoices';
import { type ChartSeries, MonthlyChart } from './monthly-chart';

export const INDICATORS_TABLE_TITLE = 'Indicadores por mes';
export const NO_INDICATORS_TEXT = 'Aún no hay CFDI para calcular tus indicadores.';
export const INDICATORS_FAILED_TEXT = 'No pudimos cargar tus indicadores.';

// Blueprint's palette (green3, red3, blue3, orange3): income, expense, net, cancelled.
const COLORS = { income: '#238551', expense: '#cd4246', mxn: '#2d72d2', usd: '#c87619' } as const;

/** Spec §9: money in dollar-style format with its currency (issue 33); negative amounts keep their sign. */
function money(text: string, currency: DisplayCurrency): string {
  return formatMoney(parseMoney(text), currency);
}

const units = (text: string) => parseMoney(text) / 100;

interface ChartSpec {
  id: string;
  title: string;
  kind: 'bars' | 'lines';
  /** The left axis's currency. */
  currency: DisplayCurrency;
  series: ChartSeries[];
}

function chartSpecs(rows: readonly KnowYourBusinessRow[]): ChartSpec[] {
  const values = (pick: (row: KnowYourBusinessRow) => string) => rows.map((row) => units(pick(row)));
  return [
    {
      id: 'mxn',
      currency: 'MXN',
      title: 'Ingresos y egresos en MXN',
      kind: 'bars',
      series: [
        { label: 'Ingresos MXN', color: COLORS.income, values: values((r) => r.incomes_mxn) },
        { label: 'Egresos MXN', color: COLORS.expense, values: values((r) => r.expenses_mxn) },
      ],
    },
    {
      id: 'usd',
      currency: 'USD',
      title: 'Ingresos y egresos en USD',
      kind: 'bars',
      series: [
        { label: 'Ingresos USD', color: COLORS.income, values: values((r) => r.incomes_usd) },
        { label: 'Egresos USD', color: COLORS.expense, values: values((r) => r.expenses_usd) },
      ],
    },
    {
      id: 'capital',
      currency: 'MXN',
      title: 'Capital neto (MXN y USD)',
      kind: 'lines',
      series: [
        { label: 'Capital neto MXN', color: COLORS.mxn, values: values((r) => r.net_capital_mxn) },
        {
          label: 'Capital neto USD',
          color: COLORS.usd,
          values: values((r) => r.net_capital_usd),
          scale: 'usd',
        },
      ],
    },
    {
      id: 'cancelado',
      currency: 'MXN',
      title: 'Facturas canceladas (MXN)',
      kind: 'bars',
      series: [
        { label: 'Ingresos cancelados', color: COLORS.income, values: values((r) => r.incomes_canceled) },
        { label: 'Egresos cancelados', color: COLORS.expense, values: values((r) => r.expenses_canceled) },
      ],
    },
  ];
}

const COLUMNS: { header: string; cell: (row: KnowYourBusinessRow) => string }[] = [
  { header: 'Ingresos MXN', cell: (row) => money(row.incomes_mxn, 'MXN') },
  { header: 'Egresos MXN', cell: (row) => money(row.expenses_mxn, 'MXN') },
  { header: 'Capital neto MXN', cell: (row) => money(row.net_capital_mxn, 'MXN') },
  { header: 'Ingresos USD', cell: (row) => money(row.incomes_usd, 'USD') },
  { header: 'Egresos USD', cell: (row) => money(row.expenses_usd, 'USD') },
  { header: 'Capital neto USD', cell: (row) => money(row.net_capital_usd, 'USD') },
  // The cancelled invoices are summed by their peso values (a USD invoice at its CFDI rate).
  { header: 'Ingresos cancelados', cell: (row) => money(row.incomes_canceled, 'MXN') },
  { header: 'Egresos cancelados', cell: (row) => money(row.expenses_canceled, 'MXN') },
];

/** The indicators as a table: every figure the charts draw, for screen readers and keyboard users alike. */
function IndicatorsTable({ rows }: { rows: readonly KnowYourBusinessRow[] }) {
  return (
    // A phone scrolls the table sideways: the box takes focus so a keyboard can scroll it too (axe
    // scrollable-region-focusable).
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <section className="flujo-kyb-table-box" aria-label={INDICATORS_TABLE_TITLE} tabIndex={0}>
      <HTMLTable compact striped className="flujo-kyb-table">
        <caption>{INDICATORS_TABLE_TITLE}</caption>
        <thead>
          <tr>
            <th scope="col">Mes</th>
            {COLUMNS.map((column) => (
              <th key={column.header} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.indicator_date}>
              <th scope="row">{row.indicator_date}</th>
              {COLUMNS.map((column) => (
                <td key={column.header}>{column.cell(row)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </section>
  );
}

export interface IndicatorsPanelProps {
  status: 'pending' | 'error' | 'success';
  /** Newest month first. */
  rows: readonly KnowYourBusinessRow[];
  hasMore: boolean;
  loadingMore: boolean;
  onMore: () => void;
  onRetry: () => void;
}

/** The indicators tab: four charts (oldest month on the left) and the table they draw (newest first). */
export function IndicatorsPanel({
  status,
  rows,
  hasMore,
  loadingMore,
  onMore,
  onRetry,
}: IndicatorsPanelProps) {
  if (status === 'pending') {
    return (
      <div className="flujo-kyb-charts" role="status" aria-busy="true" aria-label="Cargando indicadores…">
        {[0, 1].map((index) => (
          <div key={index} className={`flujo-kyb-chart ${Classes.SKELETON}`} />
        ))}
      </div>
    );
  }
  if (status === 'error') {
    return (
      <Callout intent="danger" title={INDICATORS_FAILED_TEXT}>
        <Button text="Reintentar" onClick={onRetry} />
      </Callout>
    );
  }
  if (rows.length === 0) {
    return (
      <NonIdealState
        icon={<TimelineBarChart size={48} />}
        description={<h2 className="bp6-heading flujo-section-empty-title">{NO_INDICATORS_TEXT}</h2>}
      />
    );
  }
  const oldestFirst = [...rows].reverse();
  const months = oldestFirst.map((row) => row.indicator_date);
  return (
    <>
      <div className="flujo-kyb-charts">
        {chartSpecs(oldestFirst).map((chart) => (
          <MonthlyChart
            key={chart.id}
            title={chart.title}
            kind={chart.kind}
            currency={chart.currency}
            months={months}
            series={chart.series}
          />
        ))}
      </div>
      <IndicatorsTable rows={rows} />
      {hasMore && <Button text="Ver meses anteriores" loading={loadingMore} onClick={onMore} />}
    </>
  );
}
