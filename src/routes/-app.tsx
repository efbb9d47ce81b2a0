import { Spinner } from '@blueprintjs/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createRouter, type RouterHistory, RouterProvider } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { routeTree } from '../routeTree.gen';
import { registerNavigator } from '../services/navigation';
import { SessionContext } from '../views/common/session-context';
import type { MachineOverrides } from './-machines';
// The session's wiring alone: './-machines' also wires sign-up, which only its page needs.
import { wiredSessionMachine } from './-session-machine';

/**
 * Routes take their wired machines from the router context so a test can swap one implementation
 * (say, the CAPTCHA widget) while the rest of the app stays real.
 */
export function createAppRouter(history?: RouterHistory, machines: MachineOverrides = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false } },
  });
  const router = createRouter({
    routeTree,
    history,
    trailingSlash: 'always',
    context: { queryClient, machines },
  });
  registerNavigator((href, options) => void router.navigate({ href, replace: options?.replace }));
  return router;
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}

/** Routes render only once the session knows whether there is a user (guards read the user store). */
function SessionGate({ router }: { router: AppRouter }) {
  const restoring = SessionContext.useSelector((state) => state.matches('restoring'));
  if (restoring) return <Spinner aria-label="Cargando…" />;
  return <RouterProvider router={router} />;
}

/** The session and the router's query cache, which every screen reads. */
export function AppProviders({
  router,
  session = wiredSessionMachine,
  children,
}: {
  router: AppRouter;
  session?: typeof wiredSessionMachine;
  children: ReactNode;
}) {
  return (
    <SessionContext.Provider logic={session}>
      <QueryClientProvider client={router.options.context.queryClient}>{children}</QueryClientProvider>
    </SessionContext.Provider>
  );
}

export function App({ router, session }: { router: AppRouter; session?: typeof wiredSessionMachine }) {
  return (
    <AppProviders router={router} session={session}>
      <SessionGate router={router} />
    </AppProviders>
  );
}
