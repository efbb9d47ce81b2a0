import { H1, NonIdealState } from '@blueprintjs/core';
import { Navigate } from '@tanstack/react-router';
import { useSnapshot } from 'valtio';
import { homePathFor } from '../../domain/dashboard-home';
import { paths } from '../../domain/paths';
import { userStore } from '../../stores/user.store';
import { sectionsFor } from './dashboard-sections';
import { SectionHelp } from './section-help';

/** A dashboard section: its title and help card; the section's own screen arrives with its issue. */
export function DashboardSectionPage({ path }: { path: string }) {
  const { role } = useSnapshot(userStore);
  const section = sectionsFor(role).find((s) => s.path === `${paths.dashboard}${path.replace(/\/?$/, '/')}`);
  if (!section) return <Navigate to={homePathFor(role)} replace />;
  const Icon = section.icon;
  return (
    <section aria-labelledby="seccion-titulo">
      <H1 id="seccion-titulo">{section.label}</H1>
      <SectionHelp>{section.help}</SectionHelp>
      <NonIdealState
        className="flujo-section-empty"
        icon={<Icon size={48} />}
        // Blueprint's title is an h4: under the h1 and the help's h2 it would skip a level (axe heading-order).
        description={<h2 className="bp6-heading flujo-section-empty-title">No hay facturas para revisar</h2>}
      />
    </section>
  );
}
