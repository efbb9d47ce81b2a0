import { createFileRoute, redirect } from '@tanstack/react-router';
import { paths } from '../../domain/paths';

export const Route = createFileRoute('/auth/')({
  beforeLoad: () => {
    throw redirect({ to: paths.login, replace: true });
  },
});
