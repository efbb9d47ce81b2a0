import { Callout } from '@blueprintjs/core';

/**
 * A section's help card (spec §2 "Help cards"). Its title is an h2 under the page's h1: Blueprint's Callout
 * title is an h5, which skips heading levels (axe heading-order).
 */
export function SectionHelp({ children }: { children: string }) {
  return (
    <Callout intent="primary" className="flujo-section-help">
      <h2 className="bp6-heading flujo-section-help-title">¿Qué puedes hacer aquí?</h2>
      {children}
    </Callout>
  );
}
