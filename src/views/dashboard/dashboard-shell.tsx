import './dashboard.css';
import {
  Button,
  Classes,
  Drawer,
  Menu,
  MenuDivider,
  MenuItem,
  Popover,
  PortalProvider,
  Tooltip,
} from '@blueprintjs/core';
import { CaretDownIcon, KeyIcon, LogOutIcon, MenuIcon, UserIcon } from '@blueprintjs/icons';
import { Link, useNavigate } from '@tanstack/react-router';
import { type ReactNode, useId, useState } from 'react';
import { useSnapshot } from 'valtio';
import { canSwitchView, homePathFor } from '../../domain/dashboard-home';
import { paths } from '../../domain/paths';
import { type Role, setUser, userStore } from '../../stores/user.store';
import { BrandLogo } from '../common/brand-logo';
import { useRemovePrerenderedFrame } from '../common/prerendered-frame';
import { SessionContext } from '../common/session-context';
import { type DashboardSection, sectionsFor } from './dashboard-sections';
import { type HeaderCard, HeaderCards, type HeaderSummary } from './header-cards';

function SectionLinks({
  sections,
  onNavigate,
}: {
  sections: readonly DashboardSection[];
  onNavigate?: () => void;
}) {
  // The sidebar and the drawer both list the sections: each list needs its own description ids.
  const idPrefix = useId();
  return (
    <ul className="flujo-sidebar-links">
      {sections.map((section, index) => {
        const Icon = section.icon;
        // A string for the router: the sections the catch-all route serves have no typed path of their own.
        const to: string = section.path;
        const descriptionId = section.tooltip ? `${idPrefix}-${index}` : undefined;
        const link = (
          <Link
            to={to}
            onClick={onNavigate}
            className="flujo-sidebar-link"
            aria-describedby={descriptionId}
            activeProps={{ 'aria-current': 'page' }}
          >
            <Icon className="flujo-sidebar-icon" />
            {section.label}
          </Link>
        );
        return (
          <li key={section.path}>
            {section.tooltip ? (
              <>
                {/* Spec §2's corporate tooltips, beside the item so they never cover the next one; the same
                    words are the link's description for screen readers (the tooltip is only seen). */}
                <Tooltip content={section.tooltip} placement="right">
                  {link}
                </Tooltip>
                <span id={descriptionId} className="flujo-visually-hidden">
                  {section.tooltip}
                </span>
              </>
            ) : (
              link
            )}
          </li>
        );
      })}
    </ul>
  );
}

function Brand({ to, onNavigate }: { to: string; onNavigate?: () => void }) {
  return (
    <Link to={to} className="flujo-dashboard-brand" onClick={onNavigate}>
      <BrandLogo />
      Flujo
    </Link>
  );
}

/**
 * The dashboard frame per role: a header with the brand, the role switch and the user menu; a sidebar with
 * the role's sections (a slide-in drawer below 1024 px). Corporate pages are dark, provider pages light (spec §2).
 */
export function DashboardShell({
  children,
  summary,
  factoringCard,
  headerCards,
}: {
  children: ReactNode;
  summary: HeaderSummary;
  /** The balance or enrolment card (spec §2, factoring and statement pages). */
  factoringCard?: ReactNode;
  /** Cards after the summary ones (the factoring issue's cards slot in here). */
  headerCards?: readonly HeaderCard[];
}) {
  const user = useSnapshot(userStore);
  // The route document's prerendered frame of this page gives way as the real shell appears (decision 0033).
  useRemovePrerenderedFrame();
  const session = SessionContext.useActorRef();
  const navigate = useNavigate();
  const [menuOpen, setMenuOpen] = useState(false);
  const sections = sectionsFor(user.role).filter(
    (s) => !s.hidden && (!s.onlyForCorporateAccounts || user.isCorporate),
  );
  const dark = user.role === 'corporate';
  // Spec §1/§6: a corporate with authorized SAT credentials switches between the two views.
  const canSwitchRole = canSwitchView(user);
  const switchTo = (role: Role) => {
    setUser({ role });
    void navigate({ to: homePathFor(role) });
  };
  const closeMenu = () => setMenuOpen(false);

  return (
    <div className={`flujo-dashboard ${dark ? Classes.DARK : ''}`}>
      <a className="flujo-skip" href="#contenido">
        Saltar al contenido
      </a>
      <header className="flujo-dashboard-header">
        <Button
          className="flujo-menu-toggle"
          variant="minimal"
          size="large"
          icon={<MenuIcon />}
          aria-label="Abrir menú"
          aria-haspopup="dialog"
          aria-expanded={menuOpen}
          onClick={() => setMenuOpen(true)}
        />
        <Brand to={homePathFor(user.role)} />
        {canSwitchRole && (
          <fieldset className={`flujo-role-switch ${Classes.BUTTON_GROUP}`} aria-label="Vista">
            <Button
              text="Cuentas por Cobrar"
              active={user.role === 'provider'}
              aria-pressed={user.role === 'provider'}
              intent={user.role === 'provider' ? 'primary' : 'none'}
              onClick={() => switchTo('provider')}
            />
            <Button
              text="Cuentas por Pagar"
              active={user.role === 'corporate'}
              aria-pressed={user.role === 'corporate'}
              intent={user.role === 'corporate' ? 'primary' : 'none'}
              onClick={() => switchTo('corporate')}
            />
          </fieldset>
        )}
        <Popover
          className="flujo-user-menu"
          placement="bottom-end"
          content={
            <Menu aria-label="Menú de usuario">
              <MenuItem
                icon={<UserIcon />}
                text="Perfil"
                onClick={() => void navigate({ to: paths.profile })}
              />
              <MenuItem
                icon={<KeyIcon />}
                text="Cambiar clave"
                onClick={() => void navigate({ to: paths.passwordChange })}
              />
              <MenuDivider />
              <MenuItem
                icon={<LogOutIcon />}
                text="Cerrar sesión"
                onClick={() => session.send({ type: 'session.logout' })}
              />
            </Menu>
          }
        >
          <Button
            variant="minimal"
            icon={<UserIcon />}
            endIcon={<CaretDownIcon />}
            text={<span className="flujo-user-label">Mi cuenta</span>}
          />
        </Popover>
      </header>
      <div className="flujo-dashboard-body">
        <nav className="flujo-sidebar" aria-label="Secciones del dashboard">
          <SectionLinks sections={sections} />
        </nav>
        <main id="contenido" className="flujo-dashboard-main" tabIndex={-1}>
          <HeaderCards summary={summary} factoringCard={factoringCard} extra={headerCards} />
          {/* A page's dialogs, drawers and popovers render in portals outside this frame: they get its theme. */}
          <PortalProvider portalClassName={dark ? Classes.DARK : undefined}>{children}</PortalProvider>
        </main>
      </div>
      <Drawer
        isOpen={menuOpen}
        onClose={closeMenu}
        position="left"
        size="18rem"
        // The drawer renders in a portal, outside the themed frame.
        className={`flujo-dashboard-drawer ${dark ? Classes.DARK : ''}`}
        // Blueprint's header button is labelled in English; 'Cerrar menú' below (and Esc) close it instead.
        isCloseButtonShown={false}
      >
        {/* NOTE: Blueprint's Drawer gives its panel no dialog role or name; this element carries both. */}
        <div className="flujo-drawer-dialog" role="dialog" aria-modal="true" aria-label="Menú del dashboard">
          <div className={Classes.DRAWER_HEADER}>
            <Brand to={homePathFor(user.role)} onNavigate={closeMenu} />
          </div>
          <div className={Classes.DRAWER_BODY}>
            {/* Spec §2: below 1024 px the slide-in menu has a Dashboard button to Pronto Pago. */}
            <Link
              to={paths.prontoPago}
              onClick={closeMenu}
              className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY} ${Classes.FILL} flujo-drawer-dashboard`}
            >
              Dashboard
            </Link>
            <nav aria-label="Secciones del dashboard">
              <SectionLinks sections={sections} onNavigate={closeMenu} />
            </nav>
          </div>
          <div className={Classes.DRAWER_FOOTER}>
            <Button text="Cerrar menú" fill onClick={closeMenu} />
          </div>
        </div>
      </Drawer>
    </div>
  );
}
