import { useEffect } from 'react';
import { paths } from '../../domain/paths';
import { LOGIN_CAPTCHA_CHALLENGE_URL } from '../../services/accounts.service';
import { LoginPage } from '../../views/auth/login-page';
import { SessionContext } from '../../views/common/session-context';
import { useHydrated } from '../../views/common/use-hydrated';
import { wiredSessionMachine } from '../-session-machine';

/**
 * Spec §2: a visitor whose stored session is still good goes to the dashboard, as the app's /auth route
 * does. Only a session restored at load: a login made here navigates by itself (goToLanding).
 */
function LeaveWhenSignedIn() {
  const session = SessionContext.useActorRef();
  useEffect(() => {
    let restoring = session.getSnapshot().matches('restoring');
    const subscription = session.subscribe((snapshot) => {
      if (restoring && snapshot.matches('authenticated')) window.location.replace(paths.dashboard);
      restoring = snapshot.matches('restoring');
    });
    return () => subscription.unsubscribe();
  }, [session]);
  return null;
}

/**
 * /auth/ingresar/ as a prerendered page (decision 0026): the app's login view with the real session
 * machine, without the router. The notice after sign-up (?registro=exitoso) is read from the address
 * after hydration, since the HTML is built without it.
 */
export function PrerenderedLoginPage() {
  const hydrated = useHydrated();
  const justRegistered =
    hydrated && new URLSearchParams(window.location.search).get('registro') === 'exitoso';
  return (
    <SessionContext.Provider logic={wiredSessionMachine}>
      <LeaveWhenSignedIn />
      <LoginPage justRegistered={justRegistered} captchaChallengeUrl={LOGIN_CAPTCHA_CHALLENGE_URL} />
    </SessionContext.Provider>
  );
}
