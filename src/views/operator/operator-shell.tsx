import { Link } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { BrandLogo } from '../common/brand-logo';
import { OPERATOR_SECTIONS } from './operator-sections';
import './operator-shell.css';

/**
 * The back office's frame (desktop first, decision 0050): a top bar naming the place and a nav of every
 * section; each section's route renders its page inside.
 */
export function OperatorShell({ children, account }: { children: ReactNode; account?: ReactNode }) {
  return (
    <div className="operator-shell">
      <header className="operator-shell__bar">
        <span className="operator-shell__brand">
          <BrandLogo />
          <span className="operator-shell__wordmark">Flujo</span>
          <span className="operator-shell__place">Operación</span>
        </span>
        <div className="operator-shell__account">{account}</div>
      </header>
      <div className="operator-shell__body">
        <nav className="operator-shell__nav" aria-label="Secciones de operación">
          <ul>
            {OPERATOR_SECTIONS.map((section) => (
              <li key={section.to}>
                <Link to={section.to} activeProps={{ 'aria-current': 'page', className: 'is-active' }}>
                  {section.label}
                </Link>
              </li>
            ))}
          </ul>
        </nav>
        <main className="operator-shell__main" id="contenido">
          {children}
        </main>
      </div>
    </div>
  );
}
