import { createContext, type HTMLAttributes, type ReactNode, useContext, useId } from 'react';

/**
 * How `Static` renders: while prerendering it marks its element; while hydrating a prerendered page it
 * reuses the markup already in the document. With no provider (the app) it is a plain element.
 */
export type StaticHtmlMode = { mode: 'prerender' } | { mode: 'hydrate'; html: ReadonlyMap<string, string> };

const StaticHtmlContext = createContext<StaticHtmlMode | null>(null);
export const StaticHtmlProvider = StaticHtmlContext.Provider;

export const STATIC_ATTRIBUTE = 'data-static';

/** The markup of every `Static` element in the document, by its id, read before hydration. */
export function readStaticHtml(root: ParentNode): Map<string, string> {
  const html = new Map<string, string>();
  for (const element of root.querySelectorAll<HTMLElement>(`[${STATIC_ATTRIBUTE}]`)) {
    html.set(element.getAttribute(STATIC_ATTRIBUTE)!, element.innerHTML);
  }
  return html;
}

type StaticTag = 'div' | 'section' | 'article' | 'nav' | 'ul' | 'ol' | 'p' | 'figure';

/**
 * An element whose content never changes in the browser: text, links, lists, native disclosure widgets.
 * A prerendered page hydrates it as one element holding its existing markup, so React does not walk (or
 * keep) the hundreds of text nodes a marketing page is made of (decision 0007). Nothing inside may need
 * React in the browser: no state, effects or event handlers.
 */
export function Static({
  as: Tag = 'div',
  children,
  ...attributes
}: { as?: StaticTag; children: ReactNode } & HTMLAttributes<HTMLElement>) {
  const id = useId();
  const context = useContext(StaticHtmlContext);
  if (!context) return <Tag {...attributes}>{children}</Tag>;
  const marked = { ...attributes, [STATIC_ATTRIBUTE]: id };
  const html = context.mode === 'hydrate' ? context.html.get(id) : undefined;
  if (html === undefined) return <Tag {...marked}>{children}</Tag>;
  // biome-ignore lint/security/noDangerouslySetInnerHtml: the markup React itself prerendered for this element
  return <Tag {...marked} dangerouslySetInnerHTML={{ __html: html }} />;
}
