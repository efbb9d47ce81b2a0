import { startTransition, useEffect, useState } from 'react';

/**
 * False on the first render, then true through a transition: a component that renders a large tree only once
 * this is true has that tree rendered in slices that yield to the browser, instead of in the one long task
 * of the store update (router, session) that mounted it. Whatever was on screen stays until it is ready.
 */
export function useMountedInTransition(): boolean {
  // Rendered to a string at build time (a dashboard frame, decision 0033) there are no effects and no
  // transitions: the tree is rendered at once.
  const [mounted, setMounted] = useState(typeof document === 'undefined');
  useEffect(() => {
    startTransition(() => setMounted(true));
  }, []);
  return mounted;
}
