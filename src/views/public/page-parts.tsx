import './public.css';
import type { ReactNode } from 'react';
import { Static } from '../common/static-html';

// The building blocks the marketing pages share, so every page reads the same way.

export function LinkButton({
  href,
  children,
  variant = 'primary',
}: {
  href: string;
  children: ReactNode;
  variant?: 'primary' | 'ghost';
}) {
  return (
    <a href={href} className={`site-button site-button--${variant}`}>
      {children}
    </a>
  );
}

export function PageHero({
  id,
  eyebrow,
  title,
  lead,
  actions,
  aside,
}: {
  id: string;
  eyebrow?: string;
  title: string;
  lead: ReactNode;
  actions?: ReactNode;
  aside?: ReactNode;
}) {
  return (
    <Static as="section" className={aside ? 'site-hero site-hero--split' : 'site-hero'} aria-labelledby={id}>
      <div className="site-hero__text">
        {eyebrow && <p className="site-eyebrow">{eyebrow}</p>}
        <h1 id={id}>{title}</h1>
        <p className="site-lead">{lead}</p>
        {actions && <div className="site-actions">{actions}</div>}
      </div>
      {aside && <div className="site-hero__aside">{aside}</div>}
    </Static>
  );
}

export function Section({
  id,
  title,
  intro,
  tone,
  children,
}: {
  id: string;
  title: string;
  intro?: ReactNode;
  tone?: 'surface';
  children: ReactNode;
}) {
  return (
    <section className={tone ? `site-section site-section--${tone}` : 'site-section'} aria-labelledby={id}>
      <div className="site-section__inner">
        <h2 id={id}>{title}</h2>
        {intro && <p className="site-section__intro">{intro}</p>}
        {children}
      </div>
    </section>
  );
}

export interface Feature {
  title: string;
  text: ReactNode;
  icon?: ReactNode;
}

export function FeatureGrid({ features }: { features: readonly Feature[] }) {
  return (
    <Static as="ul" className="site-features">
      {features.map((feature) => (
        <li key={feature.title} className="site-card">
          {feature.icon && <span className="site-card__icon">{feature.icon}</span>}
          <h3>{feature.title}</h3>
          <p>{feature.text}</p>
        </li>
      ))}
    </Static>
  );
}

export interface Step {
  title: string;
  text: ReactNode;
}

export function StepList({ steps }: { steps: readonly Step[] }) {
  return (
    <Static as="ol" className="site-steps">
      {steps.map((step) => (
        <li key={step.title}>
          <h3>{step.title}</h3>
          <p>{step.text}</p>
        </li>
      ))}
    </Static>
  );
}

export interface Claim {
  value: string;
  label: string;
}

/** The marketing claims of spec §1, as large figures. */
export function ClaimList({ claims }: { claims: readonly Claim[] }) {
  return (
    <Static as="ul" className="site-claims">
      {claims.map((claim) => (
        <li key={claim.label}>
          <strong>{claim.value}</strong>
          <span>{claim.label}</span>
        </li>
      ))}
    </Static>
  );
}

export function CallToAction({
  id,
  title,
  text,
  actions,
}: {
  id: string;
  title: string;
  text: string;
  actions: ReactNode;
}) {
  return (
    <Static as="section" className="site-cta" aria-labelledby={id}>
      <div className="site-cta__inner">
        <h2 id={id}>{title}</h2>
        <p>{text}</p>
        <div className="site-actions">{actions}</div>
      </div>
    </Static>
  );
}

/** Spec §1's claims, worded once for every page that shows them. */
export const PRODUCT_CLAIMS: readonly Claim[] = [
  { value: '< 10 min', label: 'para registrarte' },
  { value: '< 2 horas', label: 'para recibir tu pago' },
  { value: '< 24 horas', label: 'para adelantar facturas preautorizadas' },
  { value: '3 clics', label: 'para pedir un adelanto' },
  { value: '90 días', label: 'fechas de pago de hasta 90 días' },
];
