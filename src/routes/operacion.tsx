import { createFileRoute, Outlet, redirect, useLocation } from '@tanstack/react-router';
import { paths } from '../domain/paths';
import { isOperatorSession } from '../stores/user.store';
import { useRemovePrerenderedFrame } from '../views/common/prerendered-frame';
import { OperatorAccount } from '../views/operator/operator-account';
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
  // A section's document paints a prerendered frame of its page (decision 0033); the first screen replaces it.
  useRemovePrerenderedFrame();
  // The operators' door stands alone: no public site around it, no sections before the sign-in.
  if (pathname.startsWith(paths.operatorLogin)) {
    return (
      <main id="contenido" className="operator-login-main">
        <Outlet />
      </main>
    );
  }
  return (
    <OperatorShell account={<OperatorAccount />}>
      <Outlet />
    </OperatorShell>
  );
}
