import './public-layout.css';
import { type ReactNode, useEffect, useId, useLayoutEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { paths } from '../../domain/paths';
import { setDarkMode, themeStore } from '../../stores/theme.store';
import { BrandLogo } from './brand-logo';
import { NewsletterBox } from './newsletter-box';
import { CONTACT_EMAIL, COPYRIGHT_YEAR, mailtoLink } from './site-config';
import { SocialLinks } from './social-links';
import { Static } from './static-html';
import { useHydrated } from './use-hydrated';

// Plain links, not router links: public pages are prerendered HTML (decision 0007), so moving between
// them is a document load that never needs the app's router or dashboard code.
const NAV_LINKS = [
  { href: '/inicio/', label: 'Inicio' },
  { href: '/proveedores/', label: 'Proveedores' },
  { href: '/alianzas-corporativas/', label: 'Alianzas corporativas' },
  { href: '/calculadora/', label: 'Calculadora' },
  { href: '/contacto/', label: 'Contacto' },
  { href: '/solicitar-demo/', label: 'Solicitar Demo' },
] as const;

const FOOTER_COLUMNS = [
  {
    title: 'Producto',
    links: [
      { href: '/inicio/', label: 'Inicio' },
      { href: '/proveedores/', label: 'Proveedores' },
      { href: '/compradores/', label: 'Compradores' },
      { href: '/alianzas-corporativas/', label: 'Alianzas corporativas' },
      { href: '/calculadora/', label: 'Calculadora' },
      { href: '/requisitos/', label: 'Requisitos' },
    ],
  },
  {
    title: 'Atención',
    links: [
      { href: '/solicitar-demo/', label: 'Solicitar demo' },
      { href: '/contacto/', label: 'Contacto' },
      { href: '/diagramas/', label: 'Diagramas de flujo de trabajo' },
    ],
  },
  {
    title: 'Legal',
    links: [
      { href: '/terminos-y-condiciones/', label: 'Términos y Condiciones' },
      { href: '/politicas-de-privacidad/', label: 'Políticas de privacidad' },
      { href: '/politica-de-proteccion-de-datos/', label: 'Política de protección de datos' },
    ],
  },
] as const;

export interface PublicLayoutProps {
  isAuthenticated: boolean;
  onLogout: () => void;
  /** The page's path, for aria-current; when absent it is read from the address bar after hydration. */
  currentPath?: string;
  children: ReactNode;
}

/** Whether the nav is open as a popover (the menu before hydration); false where popovers are unknown. */
function popoverOpen(element: HTMLElement | null): boolean {
  try {
    return element?.matches(':popover-open') ?? false;
  } catch {
    return false;
  }
}

/**
 * Top navigation (a slide-down menu below 1024 px), main landmark and footer shared by the public pages.
 * Dark pages mark their content with `site-page--dark`; the stylesheet darkens the header and footer with them.
 *
 * Until React owns a prerendered page, the menu is a native popover (`popovertarget`), so the Menú button
 * opens the links with no script, and Escape or a tap outside closes them (decision 0007). Once hydrated,
 * the popover attributes go and React's state drives the same button and nav, as in the app.
 */
export function PublicLayout({ isAuthenticated, onLogout, currentPath, children }: PublicLayoutProps) {
  const hydrated = useHydrated();
  const theme = useSnapshot(themeStore);
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();
  const darkMode = hydrated && theme.darkMode;
  const path = currentPath ?? (hydrated ? window.location.pathname : undefined);
  const navRef = useRef<HTMLElement>(null);
  // React 18 does not know the popover attributes; lowercase, they reach the HTML as they are.
  const noScriptMenu = hydrated ? {} : { popovertarget: menuId };
  const noScriptNav = hydrated ? {} : { popover: 'auto' };

  // Where focus was inside a menu React takes over, to give it back once the popover is gone.
  const focusInMenu = useRef<HTMLElement | null>(null);

  // A menu opened before hydration stays open when React takes it over. A layout effect, so the open
  // state commits before the render that drops the popover (useHydrated's, scheduled by a passive effect)
  // and the nav never shows closed in between.
  useLayoutEffect(() => {
    const nav = navRef.current;
    if (!popoverOpen(nav)) return;
    const focused = document.activeElement;
    if (focused instanceof HTMLElement && nav?.contains(focused)) focusInMenu.current = focused;
    setMenuOpen(true);
  }, []);

  // NOTE: removing `popover` from an open popover hides it, and the browser moves focus that was inside
  // it back to the Menú button (HTML's "hide popover algorithm", focusPreviousElement). The nav stays open
  // as React's, so focus goes back where the visitor left it in the same commit.
  useLayoutEffect(() => {
    if (!hydrated) return;
    const focused = focusInMenu.current;
    focusInMenu.current = null;
    if (menuOpen) focused?.focus({ preventScroll: true });
  }, [hydrated, menuOpen]);

  // Escape closes the open menu wherever focus is.
  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    document.addEventListener('keydown', closeOnEscape);
    return () => document.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  return (
    <div className={darkMode ? 'site site--dark bp6-dark' : 'site'}>
      <a className="flujo-skip" href="#contenido">
        Saltar al contenido
      </a>
      <header className="site-header">
        <div className="site-header__bar">
          <a href="/inicio/" className="site-brand">
            <BrandLogo />
            <span>Flujo</span>
          </a>
          <button
            type="button"
            className="site-menu-button"
            // Before hydration the browser derives the expanded state from the popover.
            aria-expanded={hydrated ? menuOpen : undefined}
            aria-controls={menuId}
            onClick={() => setMenuOpen(!menuOpen)}
            {...noScriptMenu}
          >
            <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true" focusable="false">
              <path
                d={menuOpen ? 'M4 4l12 12M16 4L4 16' : 'M3 5h14M3 10h14M3 15h14'}
                stroke="currentColor"
                strokeWidth="2"
                strokeLinecap="round"
              />
            </svg>
            Menú
          </button>
          <nav
            ref={navRef}
            id={menuId}
            className={menuOpen ? 'site-nav site-nav--open' : 'site-nav'}
            aria-label="Principal"
            {...noScriptNav}
          >
            <Static as="ul" className="site-nav__links">
              {NAV_LINKS.map((link) => (
                <li key={link.href}>
                  <a href={link.href} aria-current={link.href === path ? 'page' : undefined}>
                    {link.label}
                  </a>
                </li>
              ))}
            </Static>
            <div className="site-nav__session">
              {isAuthenticated ? (
                <>
                  <a href={paths.dashboard} className="site-button site-button--ghost">
                    Dashboard
                  </a>
                  <button type="button" className="site-button site-button--primary" onClick={onLogout}>
                    Cerrar Sesión
                  </button>
                </>
              ) : (
                <>
                  <a href="/auth/ingresar/" className="site-button site-button--ghost">
                    Ingresar
                  </a>
                  <a href="/auth/registro/" className="site-button site-button--primary">
                    Crear cuenta
                  </a>
                </>
              )}
            </div>
          </nav>
        </div>
      </header>
      <main id="contenido" className="site-main" tabIndex={-1}>
        {children}
      </main>
      <footer className="site-footer">
        <div className="site-footer__grid">
          <Static className="site-footer__about">
            <p className="site-brand site-brand--footer">
              <BrandLogo />
              <span>Flujo</span>
            </p>
            <p>
              Pronto pago y factoraje para proveedores de grandes empresas en México. Adelanta tus facturas
              sin endeudarte.
            </p>
            <p>
              <a href={mailtoLink()}>{CONTACT_EMAIL}</a>
            </p>
            <SocialLinks />
          </Static>
          {FOOTER_COLUMNS.map((column) => (
            <Static as="nav" key={column.title} aria-label={column.title} className="site-footer__column">
              <h2 className="site-footer__title">{column.title}</h2>
              <ul>
                {column.links.map((link) => (
                  <li key={link.href}>
                    <a href={link.href}>{link.label}</a>
                  </li>
                ))}
              </ul>
            </Static>
          ))}
          <NewsletterBox returnPath={currentPath} />
        </div>
        <div className="site-footer__legal">
          <p>© {COPYRIGHT_YEAR} Flujo. Todos los derechos reservados.</p>
          <button
            type="button"
            className="site-theme-toggle"
            aria-pressed={darkMode}
            onClick={() => setDarkMode(!darkMode)}
          >
            Modo oscuro
          </button>
        </div>
      </footer>
    </div>
  );
}
