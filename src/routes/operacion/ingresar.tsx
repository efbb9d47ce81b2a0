import { createFileRoute, redirect } from '@tanstack/react-router';
import { paths } from '../../domain/paths';
import { LOGIN_CAPTCHA_CHALLENGE_URL } from '../../services/accounts.service';
import { isOperatorSession } from '../../stores/user.store';
import { OperatorLoginPage } from '../../views/operator/session/operator-login-page';
import { wiredOperatorSessionMachine } from '../-operator-machines';

// The operators' door (decision 0050): password, then the authenticator's code. A signed-in operator goes in.
export const Route = createFileRoute('/operacion/ingresar')({
  beforeLoad: () => {
    if (isOperatorSession()) throw redirect({ to: paths.operatorHome, replace: true });
  },
  component: () => (
    <OperatorLoginPage
      machine={wiredOperatorSessionMachine}
      captchaChallengeUrl={LOGIN_CAPTCHA_CHALLENGE_URL}
    />
  ),
});
