import { type ReactNode, useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { userStore } from '../../stores/user.store';
import { PublicLayout } from '../../views/common/public-layout';
import { useHydrated } from '../../views/common/use-hydrated';

/** Spec §2: logging out clears all local storage, goes to the root and reloads. */
function signOut(): void {
  localStorage.clear();
  window.location.assign('/');
}

/**
 * The public layout as a prerendered page hydrates it. The HTML is built without a visitor, so the
 * signed-in buttons appear only after hydration (reading storage earlier would not match the markup).
 */
export function PublicShell({ path, children }: { path: string; children: ReactNode }) {
  const hydrated = useHydrated();
  const user = useSnapshot(userStore);
  // Marks the moment the page became interactive (the browser tests wait for it).
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <PublicLayout isAuthenticated={hydrated && user.isAuthenticated} onLogout={signOut} currentPath={path}>
      {children}
    </PublicLayout>
  );
}
