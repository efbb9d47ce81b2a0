// Server entry of the dashboard frames, built and run once by `vite build` (scripts/prerender.ts, decision 0033).
// A frame is the app's own first render of a dashboard screen for a signed-in user of the screen's role, before
// any answer has arrived: the real router, shell and page with skeleton figures and rows, no name, no data.
import { createMemoryHistory, RouterProvider } from '@tanstack/react-router';
import { renderToString } from 'react-dom/server';
import { SatStatus } from '../../domain/sat-status';
import { SIGNED_OUT_USER, setUser } from '../../stores/user.store';
import { CORPORATE_SECTIONS, PROVIDER_SECTIONS } from '../../views/dashboard/dashboard-sections';
import { OPERATOR_SECTIONS } from '../../views/operator/operator-sections';
import { AppProviders, createAppRouter } from '../-app';

/**
 * The dashboard sections listed in each role's sidebar (the frame renders the sidebar of the section's role),
 * and the back office's sections, rendered for an operator.
 */
const FRAMED_SECTIONS = [
  ...PROVIDER_SECTIONS.map((section) => ({ path: section.path, role: 'provider' as const })),
  ...CORPORATE_SECTIONS.filter((section) => !section.hidden).map((section) => ({
    path: section.path,
    role: 'corporate' as const,
  })),
  ...OPERATOR_SECTIONS.map((section) => ({ path: section.to, role: 'operator' as const })),
];

/** A Storage with nothing in it that keeps nothing: the frame shows no visitor's saved work. */
function emptyStorage(): Storage {
  return {
    length: 0,
    clear: () => {},
    getItem: () => null,
    key: () => null,
    removeItem: () => {},
    setItem: () => {},
  };
}

export function hasDashboardFrame(path: string): boolean {
  return FRAMED_SECTIONS.some((section) => section.path === path);
}

/** The markup of `path`'s first render while its data loads; the browser replaces it with the live app. */
export async function renderDashboardFrame(path: string): Promise<string> {
  const section = FRAMED_SECTIONS.find((candidate) => candidate.path === path);
  if (!section) throw new Error(`no dashboard frame for ${path}`);
  const operator = section.role === 'operator';
  setUser({
    ...SIGNED_OUT_USER,
    role: operator ? 'provider' : section.role,
    isAuthenticated: true,
    isCorporate: section.role === 'corporate',
    satCredentials: SatStatus.AUTHORIZED,
    operatorRoles: operator ? ['auditor'] : [],
  });
  // Every request stays unanswered, so each list and figure renders as it does while loading; storage is
  // empty, as a visitor's with nothing saved (the pre-authorization's work, say).
  const fetch = globalThis.fetch;
  globalThis.fetch = () => new Promise<Response>(() => {});
  const storage = Object.getOwnPropertyDescriptor(globalThis, 'localStorage');
  Object.defineProperty(globalThis, 'localStorage', { value: emptyStorage(), configurable: true });
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }));
  try {
    await router.load();
    // The guard has let the operator in; the frame's account corner names no roles (the real screen does).
    if (operator) setUser({ operatorRoles: [] });
    return renderToString(
      <AppProviders router={router}>
        <RouterProvider router={router} />
      </AppProviders>,
    );
  } finally {
    router.options.context.queryClient.clear();
    globalThis.fetch = fetch;
    if (storage) Object.defineProperty(globalThis, 'localStorage', storage);
    else Reflect.deleteProperty(globalThis, 'localStorage');
  }
}
