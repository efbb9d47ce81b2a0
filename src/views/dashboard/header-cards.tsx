import { Card, H2, H5 } from '@blueprintjs/core';
import { Link, useLocation } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { formatCurrency, parseMoney } from '../../domain/money';
import { isSatLinkAuthorized } from '../../domain/sat-status';
import type { Indicators } from '../../domain/schemas/invoices';
import { userStore } from '../../stores/user.store';

/** Spec §2: the advanced-invoices card is not shown on these pages (the factoring cards are). */
const FACTORING_PAGES = ['/dashboard/factoraje/', '/dashboard/estado-de-cuenta/'];
const ADVANCED_INVOICES_PATH: string = '/dashboard/facturas-pronto-pago/';

/** A header card another area supplies (the factoring issue adds its cards here). */
export interface HeaderCard {
  key: string;
  node: ReactNode;
}

/** The summary figures as the dashboard route loaded them (the first page of the alliances list). */
export interface HeaderSummary {
  indicators: Indicators | undefined;
  isPending: boolean;
  isError: boolean;
}

function SummaryCard({ summary }: { summary: HeaderSummary }) {
  const { isPending, isError, indicators } = summary;
  return (
    <Card className="flujo-header-card" aria-labelledby="resumen-titulo" aria-busy={isPending}>
      <H5 id="resumen-titulo">Resumen</H5>
      {isPending && <p>Cargando…</p>}
      {isError && <p>No pudimos cargar el resumen.</p>}
      {indicators && (
        <dl className="flujo-header-card-figures">
          <div>
            <dt>Monto total</dt>
            <dd>{formatCurrency(parseMoney(indicators.total ?? '0'))}</dd>
          </div>
          <div>
            <dt>Facturas</dt>
            <dd>{indicators.count ?? 0}</dd>
          </div>
          <div>
            <dt>Clientes</dt>
            <dd>{indicators.suppliers_customers ?? 0}</dd>
          </div>
        </dl>
      )}
    </Card>
  );
}

function AdvancedInvoicesCard() {
  return (
    <Card className="flujo-header-card flujo-header-card-green">
      <H2 className="bp6-heading flujo-header-card-title">
        <Link to={ADVANCED_INVOICES_PATH}>Resumen de tus Facturas Adelantadas</Link>
      </H2>
    </Card>
  );
}

/**
 * Spec §2 'Header cards': only with authorized SAT credentials. The summary card, the green card to the
 * advanced invoices (not on factoring and account statement) and whatever `extra` cards the caller adds.
 */
export function HeaderCards({
  summary,
  extra = [],
}: {
  summary: HeaderSummary;
  extra?: readonly HeaderCard[];
}) {
  const { satCredentials, role } = useSnapshot(userStore);
  const { pathname } = useLocation();
  const path = pathname.endsWith('/') ? pathname : `${pathname}/`;
  if (!isSatLinkAuthorized(satCredentials) || role !== 'provider') return null;
  return (
    <section className="flujo-header-cards" aria-label="Resumen de tu cuenta">
      <SummaryCard summary={summary} />
      {!FACTORING_PAGES.includes(path) && <AdvancedInvoicesCard />}
      {extra.map((card) => (
        <div key={card.key}>{card.node}</div>
      ))}
    </section>
  );
}
