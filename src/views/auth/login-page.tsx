import { Callout, H1 } from '@blueprintjs/core';
import type { ComponentType, ReactNode } from 'react';
import { SessionContext } from '../common/session-context';
import { ToastRegion } from '../common/toast-region';
import { useHydrated } from '../common/use-hydrated';
import { CredentialsForm } from './credentials-form';
import { LoginCarousel } from './login-carousel';

/** The two other auth screens the login page leads to. */
export type LoginLinkTarget = '/auth/registro/' | '/auth/recuperar-contrasena/';
export type LoginLink = ComponentType<{ to: LoginLinkTarget; children: ReactNode }>;

/** A document load: the prerendered login page has no router (decision 0026). */
function PlainLink({ to, children }: { to: LoginLinkTarget; children: ReactNode }) {
  return <a href={to}>{children}</a>;
}

/**
 * /auth/ingresar/: the form sends `session.login`; the session machine owns the outcome. `Link` is the
 * app's router link inside the app, a plain link on the prerendered page.
 */
export function LoginPage({
  justRegistered = false,
  Link = PlainLink,
  captchaChallengeUrl,
}: {
  justRegistered?: boolean;
  Link?: LoginLink;
  /** Where the ALTCHA widget gets its 'login' challenges, shown once the server asks for the CAPTCHA. */
  captchaChallengeUrl: string;
}) {
  const session = SessionContext.useActorRef();
  // A prerendered form sends nothing until React handles it: a native submit would put the password in
  // the URL. With the submit button disabled, Enter in a field does not submit either.
  const hydrated = useHydrated();
  const busy = SessionContext.useSelector((state) => state.hasTag('busy'));
  const error = SessionContext.useSelector((state) => state.context.error);
  const captchaRequired = SessionContext.useSelector((state) => state.context.captchaRequired);

  return (
    <div className="flujo-auth">
      <section aria-labelledby="login-titulo" className="flujo-auth-form">
        <H1 id="login-titulo">Inicio</H1>
        {justRegistered && (
          <Callout intent="success" role="status">
            Tu cuenta se creó correctamente. Ingresa con tu usuario y contraseña.
          </Callout>
        )}
        <CredentialsForm
          ariaLabel="Ingresar"
          ids={{ username: 'login-username', password: 'login-password' }}
          busy={busy}
          submitDisabled={busy || !hydrated}
          submitText="Ingresar"
          captchaChallengeUrl={captchaRequired ? captchaChallengeUrl : null}
          onSubmit={(credentials) => session.send({ type: 'session.login', credentials })}
        />
        <p>
          ¿Aún no tienes cuenta? <Link to="/auth/registro/">Crea una cuenta</Link>
        </p>
        <p>
          <Link to="/auth/recuperar-contrasena/">Olvidé mi contraseña</Link>
        </p>
        {hydrated && (
          <ToastRegion
            toasts={error ? [{ key: 'login-error', intent: 'danger', message: error }] : []}
            onDismiss={() => session.send({ type: 'session.dismissError' })}
          />
        )}
      </section>
      <aside className="flujo-auth-aside">
        <LoginCarousel />
      </aside>
    </div>
  );
}
