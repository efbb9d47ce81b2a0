import { Callout, H1, NonIdealState } from '@blueprintjs/core';
import { Navigate } from '@tanstack/react-router';
import { useSnapshot } from 'valtio';
import { userStore } from '../../stores/user.store';
import { homePathFor, sectionsFor } from './dashboard-sections';

/** A dashboard section: its title and help card; the section's own screen arrives with its issue. */
export function DashboardSectionPage({ path }: { path: string }) {
  const { role } = useSnapshot(userStore);
  const section = sectionsFor(role).find((s) => s.path === `/dashboard/${path.replace(/\/?$/, '/')}`);
  if (!section) return <Navigate to={homePathFor(role)} replace />;
  return (
    <section aria-labelledby="seccion-titulo">
      <H1 id="seccion-titulo">{section.label}</H1>
      <Callout intent="primary" title="¿Qué puedes hacer aquí?">
        {section.help}
      </Callout>
      <NonIdealState title="No hay facturas para revisar" />
    </section>
  );
}
