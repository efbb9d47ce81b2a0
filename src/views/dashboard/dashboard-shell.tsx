import { Button, Classes, Drawer, Menu, MenuItem, Popover, Tooltip } from '@blueprintjs/core';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useState } from 'react';
import { useSnapshot } from 'valtio';
import { isSatLinkAuthorized } from '../../domain/sat-status';
import { type Role, setUser, userStore } from '../../stores/user.store';
import { SessionContext } from '../common/session-context';
import { type DashboardSection, homePathFor, sectionsFor } from './dashboard-sections';
import { type HeaderCard, HeaderCards, type HeaderSummary } from './header-cards';

function SectionLinks({
  sections,
  onNavigate,
}: {
  sections: readonly DashboardSection[];
  onNavigate?: () => void;
}) {
  return (
    <ul className="flujo-sidebar-links">
      {sections.map((section) => {
        const link = (
          <Link to={section.path} onClick={onNavigate} activeProps={{ 'aria-current': 'page' }}>
            {section.label}
          </Link>
        );
        return (
          <li key={section.path}>
            {section.tooltip ? <Tooltip content={section.tooltip}>{link}</Tooltip> : link}
          </li>
        );
      })}
    </ul>
  );
}

/** The dashboard frame per role: sidebar (slide-in below 1024 px), role switch, user menu. */
export function DashboardShell({
  children,
  summary,
  headerCards,
}: {
  children: ReactNode;
  summary: HeaderSummary;
  /** Cards after the summary ones (the factoring issue's cards slot in here). */
  headerCards?: readonly HeaderCard[];
}) {
  const user = useSnapshot(userStore);
  const session = SessionContext.useActorRef();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const sections = sectionsFor(user.role).filter(
    (s) => !s.hidden && (!s.onlyForCorporateAccounts || user.isCorporate),
  );
  // Spec §1/§6: a corporate with authorized SAT credentials switches between the two views.
  const canSwitchRole = user.isCorporate && isSatLinkAuthorized(user.satCredentials);
  const switchTo = (role: Role) => {
    setUser({ role });
    void navigate({ to: homePathFor(role) });
  };

  return (
    // Spec §2: corporate pages use dark mode, provider pages light mode.
    <div className={`flujo-dashboard ${user.role === 'corporate' ? Classes.DARK : ''}`}>
      <nav className="flujo-sidebar" aria-label="Secciones del dashboard">
        <p className="flujo-brand">Flujo</p>
        <SectionLinks sections={sections} />
      </nav>
      <div className="flujo-dashboard-main">
        <header className="flujo-dashboard-header">
          <Button
            className="flujo-menu-toggle"
            variant="minimal"
            text="Menú"
            aria-expanded={menuOpen}
            onClick={() => setMenuOpen(true)}
          />
          {canSwitchRole && (
            <fieldset className="flujo-role-switch" aria-label="Vista">
              <Button
                text="Cuentas por Cobrar"
                active={user.role === 'provider'}
                aria-pressed={user.role === 'provider'}
                onClick={() => switchTo('provider')}
              />
              <Button
                text="Cuentas por Pagar"
                active={user.role === 'corporate'}
                aria-pressed={user.role === 'corporate'}
                onClick={() => switchTo('corporate')}
              />
            </fieldset>
          )}
          <Popover
            placement="bottom-end"
            content={
              <Menu aria-label="Menú de usuario">
                <MenuItem text="Perfil" onClick={() => void navigate({ to: '/editar-perfil/' })} />
                <MenuItem text="Cambiar clave" onClick={() => void navigate({ to: '/cambiar-clave/' })} />
                <MenuItem text="Cerrar sesión" onClick={() => session.send({ type: 'session.logout' })} />
              </Menu>
            }
          >
            <Button variant="minimal" text="Mi cuenta" />
          </Popover>
        </header>
        <main id="contenido">
          <HeaderCards summary={summary} extra={headerCards} />
          {children}
        </main>
      </div>
      <Drawer
        isOpen={menuOpen}
        onClose={() => setMenuOpen(false)}
        position="left"
        size="18rem"
        title="Flujo"
        aria-label="Menú del dashboard"
        // Blueprint's header button is labelled in English; 'Cerrar menú' below (and Esc) close it instead.
        isCloseButtonShown={false}
      >
        <div className={Classes.DRAWER_BODY}>
          <Link
            to={homePathFor('provider')}
            onClick={() => setMenuOpen(false)}
            className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}
          >
            Dashboard
          </Link>
          <SectionLinks sections={sections} onNavigate={() => setMenuOpen(false)} />
        </div>
        <div className={Classes.DRAWER_FOOTER}>
          <Button text="Cerrar menú" onClick={() => setMenuOpen(false)} />
        </div>
      </Drawer>
    </div>
  );
}
