import { createFileRoute, redirect } from '@tanstack/react-router';
import { paths } from '../domain/paths';
import { userStore } from '../stores/user.store';
import { PasswordChangePage } from '../views/account/password-change-page';
import { wiredPasswordChangeMachine } from './-account-machines';

// Spec §2: only when authenticated, else /inicio/.
export const Route = createFileRoute('/cambiar-clave')({
  beforeLoad: () => {
    if (!userStore.isAuthenticated) throw redirect({ to: paths.home, replace: true });
  },
  component: () => <PasswordChangePage machine={wiredPasswordChangeMachine} />,
});
