import { createFileRoute, redirect } from '@tanstack/react-router';
import { paths } from '../../domain/paths';

// Spec §2: the login screen is also the fallback for unknown auth paths.
export const Route = createFileRoute('/auth/$')({
  beforeLoad: () => {
    throw redirect({ to: paths.login, replace: true });
  },
});
