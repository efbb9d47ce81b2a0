import { createFileRoute, Outlet, redirect } from '@tanstack/react-router';
import { paths } from '../domain/paths';
import { userStore } from '../stores/user.store';

// Spec §2: /auth/* redirects to /dashboard/ when the user is already signed in.
export const Route = createFileRoute('/auth')({
  beforeLoad: () => {
    if (userStore.isAuthenticated) throw redirect({ to: paths.dashboard, replace: true });
  },
  component: Outlet,
});
