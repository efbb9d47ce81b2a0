import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};

/**
 * False while React renders on the server or hydrates prerendered HTML, true afterwards. Anything read
 * from the browser (localStorage, the URL) waits for it, so hydration matches the prerendered markup.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
}
