import { createFileRoute, redirect } from '@tanstack/react-router';
import { paths } from '../domain/paths';
import { userStore } from '../stores/user.store';
import { ProfilePage } from '../views/account/profile-page';
import { wiredProfileMachine } from './-account-machines';

// Spec §2: only when authenticated, else /inicio/.
export const Route = createFileRoute('/editar-perfil')({
  beforeLoad: () => {
    if (!userStore.isAuthenticated) throw redirect({ to: paths.home, replace: true });
  },
  component: () => <ProfilePage machine={wiredProfileMachine} />,
});
