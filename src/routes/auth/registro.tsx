import { createFileRoute } from '@tanstack/react-router';
import { CAPTCHA_CHALLENGE_URL, captchaConfig } from '../../services/accounts.service';
import { SignUpPage } from '../../views/auth/sign-up-page';
import { wiredSignUpMachine } from '../-machines';

export const Route = createFileRoute('/auth/registro')({
  // The ALTCHA widget shows only when it is the active CAPTCHA; a failed lookup means no CAPTCHA,
  // and the machine then refuses to submit (spec §5).
  loader: async () => captchaConfig().catch(() => null),
  component: function SignUpRoute() {
    const config = Route.useLoaderData();
    const { machines } = Route.useRouteContext();
    return (
      <SignUpPage
        machine={machines.signUp ?? wiredSignUpMachine}
        challengeUrl={config?.provider === 'altcha' ? CAPTCHA_CHALLENGE_URL : null}
      />
    );
  },
});
