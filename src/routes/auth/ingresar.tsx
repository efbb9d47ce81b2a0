import { createFileRoute } from '@tanstack/react-router';
import { LoginPage } from '../../views/auth/login-page';

export const Route = createFileRoute('/auth/ingresar')({
  validateSearch: (search: Record<string, unknown>): { registro?: 'exitoso' } =>
    search.registro === 'exitoso' ? { registro: 'exitoso' } : {},
  component: function LoginRoute() {
    return <LoginPage justRegistered={Route.useSearch().registro === 'exitoso'} />;
  },
});
