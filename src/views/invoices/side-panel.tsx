import { Classes, Drawer } from '@blueprintjs/core';
import { type ReactNode, useId } from 'react';

/**
 * A right-side panel that is a named modal dialog for assistive technology. Blueprint's Drawer gives its box no
 * role and titles it with an h4 (under a page's h1 and h2, axe's heading-order), and ignores aria-label; the
 * panel's own header is an h2 that names the dialog. Closing is refused while `busy` (a call in flight).
 */
export function SidePanel({
  title,
  isOpen,
  busy,
  onClose,
  size,
  footer,
  children,
}: {
  title: string;
  isOpen: boolean;
  busy: boolean;
  onClose: () => void;
  /** CSS width, e.g. 'min(460px, 100vw)'. */
  size: string;
  footer: ReactNode;
  children: ReactNode;
}) {
  const titleId = useId();
  return (
    <Drawer
      isOpen={isOpen}
      onClose={busy ? undefined : onClose}
      canEscapeKeyClose={!busy}
      canOutsideClickClose={!busy}
      position="right"
      size={size}
    >
      <div className="flujo-side-panel" role="dialog" aria-modal="true" aria-labelledby={titleId}>
        <div className={Classes.DRAWER_HEADER}>
          <h2 id={titleId} className={`${Classes.HEADING} flujo-side-panel-title`}>
            {title}
          </h2>
        </div>
        <div className={Classes.DRAWER_BODY}>
          <div className={Classes.DIALOG_BODY} aria-busy={busy}>
            {children}
          </div>
        </div>
        <div className={Classes.DRAWER_FOOTER}>{footer}</div>
      </div>
    </Drawer>
  );
}
