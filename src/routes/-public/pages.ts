import type { ComponentType } from 'react';
import type { PublicPath } from '../../views/public/public-pages';

export interface PublicPageModule {
  /** The module that holds the page, as the build manifest names it (the prerender preloads its chunk). */
  source: string;
  load: () => Promise<ComponentType>;
}

// One lazily loaded module per page, so each prerendered page downloads only its own code.
export const PUBLIC_PAGE_MODULES: Record<PublicPath, PublicPageModule> = {
  '/inicio/': {
    source: 'src/views/public/home-page.tsx',
    load: () => import('../../views/public/home-page').then((m) => m.HomePage),
  },
  '/proveedores/': {
    source: 'src/views/public/providers-page.tsx',
    load: () => import('../../views/public/providers-page').then((m) => m.ProvidersPage),
  },
  '/compradores/': {
    source: 'src/views/public/buyers-page.tsx',
    load: () => import('../../views/public/buyers-page').then((m) => m.BuyersPage),
  },
  '/alianzas-corporativas/': {
    source: 'src/routes/-public/wired-pages.tsx',
    load: () => import('./wired-pages').then((m) => m.WiredCorporateAlliancesPage),
  },
  '/calculadora/': {
    source: 'src/views/public/calculator-page.tsx',
    load: () => import('../../views/public/calculator-page').then((m) => m.CalculatorPage),
  },
  '/contacto/': {
    source: 'src/views/public/contact-page.tsx',
    load: () => import('../../views/public/contact-page').then((m) => m.ContactPage),
  },
  '/solicitar-demo/': {
    source: 'src/routes/-public/wired-pages.tsx',
    load: () => import('./wired-pages').then((m) => m.WiredDemoRequestPage),
  },
  '/terminos-y-condiciones/': {
    source: 'src/views/public/terms-page.tsx',
    load: () => import('../../views/public/terms-page').then((m) => m.TermsPage),
  },
  '/politicas-de-privacidad/': {
    source: 'src/views/public/privacy-page.tsx',
    load: () => import('../../views/public/privacy-page').then((m) => m.PrivacyPage),
  },
  '/politica-de-proteccion-de-datos/': {
    source: 'src/views/public/data-protection-page.tsx',
    load: () => import('../../views/public/data-protection-page').then((m) => m.DataProtectionPage),
  },
  '/requisitos/': {
    source: 'src/views/public/requirements-page.tsx',
    load: () => import('../../views/public/requirements-page').then((m) => m.RequirementsPage),
  },
  '/auth/ingresar/': {
    source: 'src/routes/-public/login-page.tsx',
    load: () => import('./login-page').then((m) => m.PrerenderedLoginPage),
  },
};
