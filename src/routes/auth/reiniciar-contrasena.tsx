import { createFileRoute } from '@tanstack/react-router';
import { NewPasswordPage } from '../../views/auth/new-password-page';
import { wiredPasswordResetMachine } from '../-account-machines';

export const Route = createFileRoute('/auth/reiniciar-contrasena')({
  // The e-mailed link carries the reset token (spec §2). NOTE: the router parses search values as JSON
  // first, so only a string survives as a token; the server's tokens are random text, never bare numbers.
  validateSearch: (search: Record<string, unknown>): { token?: string } =>
    typeof search.token === 'string' && search.token.trim() !== '' ? { token: search.token } : {},
  component: function NewPasswordRoute() {
    const { token } = Route.useSearch();
    return <NewPasswordPage machine={wiredPasswordResetMachine} token={token ?? null} />;
  },
});
