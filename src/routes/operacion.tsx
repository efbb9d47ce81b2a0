import { createFileRoute, Outlet, redirect, useLocation } from '@tanstack/react-router';
import { paths } from '../domain/paths';
import { isOperatorSession } from '../stores/user.store';
import { OperatorShell } from '../views/operator/operator-shell';

// The financier's back office (issue 19): every page but the sign-in needs a signed-in operator.
export const Route = createFileRoute('/operacion')({
  beforeLoad: ({ location }) => {
    if (location.pathname.startsWith(paths.operatorLogin)) return;
    if (!isOperatorSession()) throw redirect({ to: paths.operatorLogin, replace: true });
  },
  component: OperatorLayout,
});

function OperatorLayout() {
  const { pathname } = useLocation();
  if (pathname.startsWith(paths.operatorLogin)) return <Outlet />;
  return (
    <OperatorShell>
      <Outlet />
    </OperatorShell>
  );
}
