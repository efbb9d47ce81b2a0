import { Classes, Tooltip, type TooltipProps } from '@blueprintjs/core';
import { cloneElement, type ReactElement, type Ref, useEffect, useRef, useState } from 'react';

type Opened = 'pointer' | 'focus';

/**
 * Blueprint's Tooltip, mounted only when its target is first hovered or focused. A table shows dozens of such
 * targets, and each Tooltip (a Popover with its positioning and listeners) costs many times the span it wraps,
 * all of it while the rows mount; until then the target sits in a plain wrapper with the Tooltip's classes
 * and two listeners. When the Tooltip takes over, the target is rendered anew inside it: a pointer finds the
 * tip open at once (closing when it leaves), and a keyboard user keeps the focus, which opens it.
 */
export function LazyTooltip({
  target,
  className,
  ...tooltip
}: Omit<TooltipProps, 'children' | 'renderTarget' | 'defaultIsOpen'> & {
  /** A single element that accepts a ref (a focusable span, say). */
  target: ReactElement<{ ref?: Ref<HTMLElement> }>;
}) {
  const [opened, setOpened] = useState<Opened | null>(null);
  const targetRef = useRef<HTMLElement>(null);
  useEffect(() => {
    if (opened === 'focus') targetRef.current?.focus();
  }, [opened]);
  if (opened === null)
    return (
      // biome-ignore lint/a11y/noStaticElementInteractions: as Blueprint's own target wrapper, it hears the focus and pointer of the focusable target inside.
      <span
        className={`${Classes.POPOVER_TARGET} ${className ?? ''}`}
        onMouseEnter={() => setOpened('pointer')}
        onFocus={() => setOpened('focus')}
      >
        {target}
      </span>
    );
  return (
    <Tooltip {...tooltip} className={className} defaultIsOpen={opened === 'pointer'}>
      {cloneElement(target, { ref: targetRef })}
    </Tooltip>
  );
}
