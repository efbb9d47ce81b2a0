import { createFileRoute, redirect } from '@tanstack/react-router';
import { homePathFor } from '../../domain/dashboard-home';
import { userStore } from '../../stores/user.store';

export const Route = createFileRoute('/dashboard/')({
  beforeLoad: () => {
    throw redirect({ to: homePathFor(userStore.role), replace: true });
  },
});
