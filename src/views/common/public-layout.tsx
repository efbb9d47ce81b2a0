import { Classes } from '@blueprintjs/core';
import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';

const NAV_LINKS = [
  { to: '/inicio/', label: 'Inicio' },
  { to: '/solicitar-demo/', label: 'Solicitar Demo' },
  { to: '/diagramas/', label: 'Diagramas' },
] as const;

/** Top navigation, main landmark and footer shared by the public pages. */
export function PublicLayout({ children }: { children: ReactNode }) {
  return (
    <>
      <a className="flujo-skip" href="#contenido">
        Saltar al contenido
      </a>
      <header>
        <nav className="flujo-nav" aria-label="Principal">
          <Link to="/inicio/" className="flujo-brand">
            Flujo
          </Link>
          {NAV_LINKS.map((link) => (
            <Link key={link.to} to={link.to}>
              {link.label}
            </Link>
          ))}
          {/* Navigation, so real links styled as buttons (Blueprint's AnchorButton announces role=button). */}
          <a href="/auth/ingresar/" className={`${Classes.BUTTON} ${Classes.MINIMAL}`}>
            Ingresar
          </a>
          <a href="/auth/registro/" className={`${Classes.BUTTON} ${Classes.INTENT_PRIMARY}`}>
            Crear cuenta
          </a>
        </nav>
      </header>
      <main id="contenido" className="flujo-main">
        {children}
      </main>
      <footer className="flujo-footer">
        <p>© 2026 Flujo. Pronto pago y factoraje para proveedores y corporativos en México.</p>
      </footer>
    </>
  );
}
