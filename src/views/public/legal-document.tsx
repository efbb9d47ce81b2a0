import './public.css';
import type { ReactNode } from 'react';
import { LEGAL_UPDATED } from '../common/site-config';
import { Static } from '../common/static-html';

export interface LegalSection {
  id: string;
  title: string;
  content: ReactNode;
}

/** A legal text with its date and a table of contents linking to each numbered section. */
export function LegalDocument({
  id,
  title,
  intro,
  sections,
}: {
  id: string;
  title: string;
  intro: ReactNode;
  sections: readonly LegalSection[];
}) {
  return (
    <Static as="article" className="site-legal" aria-labelledby={id}>
      <h1 id={id}>{title}</h1>
      <p className="site-legal__meta">Última actualización: {LEGAL_UPDATED}</p>
      {intro}
      <nav className="site-legal__toc" aria-label="Contenido">
        <strong>Contenido</strong>
        <ol>
          {sections.map((section) => (
            <li key={section.id}>
              <a href={`#${section.id}`}>{section.title}</a>
            </li>
          ))}
        </ol>
      </nav>
      {sections.map((section, index) => (
        <section key={section.id} id={section.id} aria-labelledby={`${section.id}-titulo`}>
          <h2 id={`${section.id}-titulo`}>
            {index + 1}. {section.title}
          </h2>
          {section.content}
        </section>
      ))}
    </Static>
  );
}
