import { createFileRoute, redirect } from '@tanstack/react-router';
import { paths } from '../domain/paths';

export const Route = createFileRoute('/')({
  beforeLoad: () => {
    throw redirect({ to: paths.home, replace: true });
  },
});
