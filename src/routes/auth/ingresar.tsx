import { createFileRoute, Link } from '@tanstack/react-router';
import { LOGIN_CAPTCHA_CHALLENGE_URL } from '../../services/accounts.service';
import type { LoginLink } from '../../views/auth/login-page';
import { LoginPage } from '../../views/auth/login-page';

// Inside the app the login page's links move with the router; a document load of /auth/ingresar/ gets
// the prerendered page instead (src/routes/-public/login-page.tsx, decision 0026).
const RouterLink: LoginLink = ({ to, children }) => <Link to={to}>{children}</Link>;

export const Route = createFileRoute('/auth/ingresar')({
  validateSearch: (search: Record<string, unknown>): { registro?: 'exitoso' } =>
    search.registro === 'exitoso' ? { registro: 'exitoso' } : {},
  component: function LoginRoute() {
    return (
      <LoginPage
        justRegistered={Route.useSearch().registro === 'exitoso'}
        Link={RouterLink}
        captchaChallengeUrl={LOGIN_CAPTCHA_CHALLENGE_URL}
      />
    );
  },
});
