import { useEffect, useId, useRef } from 'react';
import type uPlot from 'uplot';
import { chartAmount, chartMonth } from '../../domain/chart-format';
import type { DisplayCurrency } from '../../domain/money';

export interface ChartSeries {
  label: string;
  color: string;
  /** One value per month, in units of the currency (display only: the money math stays in centavos). */
  values: number[];
  /** A second y axis on the right (the dollars beside the pesos). */
  scale?: 'usd';
}

const CHART_HEIGHT_PX = 240;
/** Below this width the month labels are slanted. */
const NARROW_CHART_PX = 480;

function chartOptions(
  uplot: typeof uPlot,
  width: number,
  months: readonly string[],
  series: readonly ChartSeries[],
  kind: 'bars' | 'lines',
  currency: DisplayCurrency,
): uPlot.Options {
  const hasUsd = series.some((s) => s.scale === 'usd');
  const barWidth = 0.8 / series.length;
  return {
    width,
    height: CHART_HEIGHT_PX,
    // The legend and the table show the figures; no cursor tooltips to reach only with a mouse.
    cursor: { show: false },
    legend: { show: true, live: false },
    scales: { x: { time: false, range: (_u, min, max) => [min - 0.5, max + 0.5] } },
    axes: [
      {
        splits: () => months.map((_, index) => index),
        values: (_u, splits) => splits.map((i) => chartMonth(months[i] ?? '')),
        // On a phone the 'jul 2026' labels would overlap side by side.
        ...(width < NARROW_CHART_PX ? { rotate: -45, size: 56 } : {}),
      },
      // Short amounts ('$300 mil', '$1.2 M'), the axis named by its currency.
      { values: (_u, splits) => splits.map(chartAmount), size: 72, label: currency, labelSize: 20 },
      ...(hasUsd
        ? [
            {
              scale: 'usd',
              side: 1 as const,
              values: (_u: uPlot, s: number[]) => s.map(chartAmount),
              size: 72,
              label: 'USD',
              labelSize: 20,
              grid: { show: false },
            },
          ]
        : []),
    ],
    series: [
      {},
      ...series.map((s, index) => ({
        label: s.label,
        stroke: s.color,
        fill: kind === 'bars' ? s.color : undefined,
        width: kind === 'bars' ? 0 : 2,
        scale: s.scale ?? 'y',
        points: { show: kind === 'lines' },
        paths:
          kind === 'bars'
            ? uplot.paths.bars?.({ size: [barWidth, 48], align: index === 0 ? -1 : 1 })
            : undefined,
      })),
    ],
  };
}

/**
 * A monthly chart drawn by uPlot, loaded on first use (a lazy chunk of about 21 KB gzip, only on this page).
 * The canvas is decorative for assistive technology: the figure names the table with the same figures.
 */
export function MonthlyChart({
  title,
  kind,
  months,
  series,
  currency,
}: {
  title: string;
  kind: 'bars' | 'lines';
  /** 'YYYY-MM', oldest first. */
  months: readonly string[];
  series: readonly ChartSeries[];
  /** The currency of the left axis (a 'usd' series has its own axis on the right). */
  currency: DisplayCurrency;
}) {
  const box = useRef<HTMLDivElement>(null);
  const titleId = useId();

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let chart: uPlot | null = null;
    let cancelled = false;
    let observer: ResizeObserver | null = null;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: uplot }]) => {
      if (cancelled) return;
      const data: uPlot.AlignedData = [months.map((_, index) => index), ...series.map((s) => s.values)];
      chart = new uplot(
        chartOptions(uplot, element.clientWidth, months, series, kind, currency),
        data,
        element,
      );
      observer = new ResizeObserver(() =>
        chart?.setSize({ width: element.clientWidth, height: CHART_HEIGHT_PX }),
      );
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      chart?.destroy();
    };
  }, [months, series, kind, currency]);

  return (
    <figure className="flujo-kyb-chart" aria-labelledby={titleId}>
      <figcaption id={titleId} className="flujo-kyb-chart-title">
        {title}
      </figcaption>
      <div ref={box} className="flujo-kyb-chart-canvas" aria-hidden="true" />
      <p className="bp6-text-muted flujo-kyb-chart-note">Cifras exactas en la tabla «Indicadores por mes».</p>
    </figure>
  );
}
