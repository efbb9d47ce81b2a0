import { Card, Classes } from '@blueprintjs/core';
import type { ReactNode } from 'react';
import { SUM_LEFT_OUT_TEXT } from '../../domain/list-count';
import './invoices.css';

export const STAT_CARDS_FAILED_TEXT = 'No pudimos cargar los indicadores.';

/** A list's first-page indicators as its query gives them. */
export interface StatCardState<T> {
  indicators: T | undefined;
  isPending: boolean;
  isError: boolean;
}

/**
 * One figure card above a list (spec §2: Facturas, Clientes, Monto total). The value keeps its place while
 * loading (a skeleton), so nothing below moves when it arrives.
 */
export function StatCard<T>({
  id,
  icon,
  label,
  state,
  children,
}: {
  id: string;
  icon: ReactNode;
  label: string;
  state: StatCardState<T>;
  children: (indicators: T) => ReactNode;
}) {
  return (
    <Card className="flujo-stat-card" aria-labelledby={id} aria-busy={state.isPending}>
      <h2 id={id} className="flujo-stat-card-label">
        <span className="flujo-stat-card-icon" aria-hidden="true">
          {icon}
        </span>
        {label}
      </h2>
      <div className="flujo-stat-card-value">
        {state.indicators ? (
          children(state.indicators)
        ) : state.isError ? (
          <span className="flujo-stat-card-status">{STAT_CARDS_FAILED_TEXT}</span>
        ) : (
          <span className={Classes.SKELETON}>0000000</span>
        )}
      </div>
    </Card>
  );
}

/** A card's figure the list left out: a search matched more invoices than it counts (decision 0074). */
export function SumLeftOut() {
  return <span className="flujo-stat-card-status">{SUM_LEFT_OUT_TEXT}</span>;
}
