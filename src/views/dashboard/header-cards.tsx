import { Card, Classes, H2 } from '@blueprintjs/core';
import { ArrowRightIcon, DocumentIcon, DollarIcon, OfficeIcon } from '@blueprintjs/icons';
import { Link, useLocation } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import { parseMoney } from '../../domain/money';
import { paths } from '../../domain/paths';
import { isSatLinkAuthorized } from '../../domain/sat-status';
import type { Indicators } from '../../domain/schemas/invoices';
import { userStore } from '../../stores/user.store';
import { MoneyFigure } from '../common/money-figure';
import { HeaderCardFigure as Figure } from './header-card-figure';

/** Spec §2: the advanced-invoices card is not shown on these pages (the factoring cards are). */
const FACTORING_PAGES: readonly string[] = [paths.factoring, paths.accountStatement];

/** True on the pages that show the factoring cards instead of the advanced-invoices one (spec §2). */
export function isFactoringPage(pathname: string): boolean {
  return FACTORING_PAGES.includes(pathname.endsWith('/') ? pathname : `${pathname}/`);
}

/** A card's box while what fills it loads: the same size, so nothing below moves when it arrives. */
export function HeaderCardPlaceholder() {
  return (
    <Card className="flujo-header-card" aria-busy="true">
      <span className={Classes.SKELETON} aria-hidden="true">
        0000000
      </span>
      <p className="flujo-visually-hidden">Cargando…</p>
    </Card>
  );
}

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
  // The figures keep their place while loading (skeleton values), so nothing below moves when they arrive.
  const value = (figure: (loaded: Indicators) => ReactNode) =>
    indicators ? (
      figure(indicators)
    ) : (
      <span className={Classes.SKELETON} aria-hidden="true">
        0000000
      </span>
    );
  return (
    <Card className="flujo-header-card" aria-labelledby="resumen-titulo" aria-busy={isPending}>
      <h2 id="resumen-titulo" className="flujo-header-card-label">
        Resumen
      </h2>
      {isError ? (
        <p className="flujo-header-card-status">No pudimos cargar el resumen.</p>
      ) : (
        <dl className="flujo-header-card-figures">
          {/* The server sums the invoices' peso values (a USD invoice at its CFDI rate): one figure, in MXN. */}
          <Figure
            icon={<DollarIcon />}
            label="Monto total"
            value={value((loaded) => <MoneyFigure amount={parseMoney(loaded.total ?? '0')} currency="MXN" />)}
          />
          <Figure icon={<DocumentIcon />} label="Facturas" value={value((loaded) => loaded.count ?? 0)} />
          <Figure
            icon={<OfficeIcon />}
            label="Clientes"
            value={value((loaded) => loaded.suppliers_customers ?? 0)}
          />
        </dl>
      )}
      {isPending && <p className="flujo-visually-hidden">Cargando…</p>}
    </Card>
  );
}

function AdvancedInvoicesCard() {
  return (
    <Card className="flujo-header-card flujo-header-card-green">
      <H2 className="flujo-header-card-title">
        <Link to={paths.advancedInvoices}>Resumen de tus Facturas Adelantadas</Link>
      </H2>
      <ArrowRightIcon className="flujo-header-card-green-icon" size={20} />
    </Card>
  );
}

/**
 * Spec §2 'Header cards': only with authorized SAT credentials. The summary card; the green card to the advanced
 * invoices (not on factoring and account statement); on those two pages the blue enrolment card when the user
 * has no factoring, the balance card when it has; then whatever `extra` cards the caller adds.
 */
export function HeaderCards({
  summary,
  factoringCard,
  extra = [],
}: {
  summary: HeaderSummary;
  /** The balance or enrolment card, shown on the factoring and statement pages. */
  factoringCard?: ReactNode;
  extra?: readonly HeaderCard[];
}) {
  const { satCredentials, role } = useSnapshot(userStore);
  const { pathname } = useLocation();
  if (!isSatLinkAuthorized(satCredentials) || role !== 'provider') return null;
  const onFactoringPage = isFactoringPage(pathname);
  return (
    <section className="flujo-header-cards" aria-label="Resumen de tu cuenta">
      <SummaryCard summary={summary} />
      {!onFactoringPage && <AdvancedInvoicesCard />}
      {onFactoringPage && factoringCard}
      {extra.map((card) => (
        <div key={card.key}>{card.node}</div>
      ))}
    </section>
  );
}
