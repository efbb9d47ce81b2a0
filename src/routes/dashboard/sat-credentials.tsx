import { createFileRoute, redirect } from '@tanstack/react-router';
import { paths } from '../../domain/paths';
import { isSatLinkAuthorized } from '../../domain/sat-status';
import { userStore } from '../../stores/user.store';
import { SatCredentialsPage } from '../../views/sat/sat-credentials-page';
import { wiredSatLinkMachine } from '../-sat-machines';
import { requireProvider } from './-guards';

// Spec §2: a provider screen, shown only while the SAT link is not authorized; once it is, Pronto Pago.
export const Route = createFileRoute('/dashboard/sat-credentials')({
  beforeLoad: () => {
    requireProvider();
    if (isSatLinkAuthorized(userStore.satCredentials))
      throw redirect({ to: paths.prontoPago, replace: true });
  },
  component: SatCredentialsRoute,
});

function SatCredentialsRoute() {
  const { machines } = Route.useRouteContext();
  return (
    <SatCredentialsPage
      machine={machines.satLink ?? wiredSatLinkMachine}
      // Read once: the machine owns the status from here on.
      satCredentials={userStore.satCredentials}
    />
  );
}
