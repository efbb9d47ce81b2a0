import { createFileRoute, redirect } from '@tanstack/react-router';
import { userStore } from '../../stores/user.store';
import { homePathFor } from '../../views/dashboard/dashboard-sections';

export const Route = createFileRoute('/dashboard/')({
  beforeLoad: () => {
    throw redirect({ to: homePathFor(userStore.role), replace: true });
  },
});
