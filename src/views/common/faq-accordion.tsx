import type { ReactNode } from 'react';
import { Static } from './static-html';

export interface FaqItem {
  question: string;
  answer: ReactNode;
}

/**
 * Questions and answers as native disclosure widgets: they open with a keyboard or a tap before the
 * page's script has loaded, and the shared `name` keeps one answer open at a time.
 */
export function FaqAccordion({ id, title, items }: { id: string; title: string; items: readonly FaqItem[] }) {
  return (
    <Static as="section" className="site-section" aria-labelledby={id}>
      <div className="site-section__inner site-faq">
        <h2 id={id}>{title}</h2>
        {items.map((item) => (
          <details key={item.question} className="site-faq__item" name={id}>
            <summary>{item.question}</summary>
            <div className="site-faq__answer">{item.answer}</div>
          </details>
        ))}
      </div>
    </Static>
  );
}
