import { createFileRoute, redirect } from '@tanstack/react-router';
import { paths } from '../../domain/paths';

// /operacion/ opens the day's first task: the control desk.
export const Route = createFileRoute('/operacion/')({
  beforeLoad: () => {
    throw redirect({ to: paths.operatorDesk, replace: true });
  },
});
