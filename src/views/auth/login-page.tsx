import { Button, Callout, FormGroup, H1, InputGroup } from '@blueprintjs/core';
import { type ComponentType, lazy, type ReactNode, Suspense } from 'react';
import { useForm } from 'react-hook-form';
import { LoginRequest } from '../../domain/schemas/session';
import { SessionContext } from '../common/session-context';
import { structResolver } from '../common/struct-resolver';
import { ToastRegion } from '../common/toast-region';
import { useHydrated } from '../common/use-hydrated';
import { LoginCarousel } from './login-carousel';

// Loaded only once the server asks for the CAPTCHA: the prerendered page stays light (decision 0026's budgets).
const AltchaWidget = lazy(() =>
  import('./altcha-widget').then((module) => ({ default: module.AltchaWidget })),
);

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
  const { register, handleSubmit, formState } = useForm<LoginRequest>({
    defaultValues: { username: '', password: '' },
    resolver: structResolver(LoginRequest),
  });
  const username = register('username');
  const password = register('password');

  return (
    <div className="flujo-auth">
      <section aria-labelledby="login-titulo" className="flujo-auth-form">
        <H1 id="login-titulo">Inicio</H1>
        {justRegistered && (
          <Callout intent="success" role="status">
            Tu cuenta se creó correctamente. Ingresa con tu usuario y contraseña.
          </Callout>
        )}
        <form
          noValidate
          aria-label="Ingresar"
          onSubmit={handleSubmit((credentials) => session.send({ type: 'session.login', credentials }))}
        >
          <FormGroup
            label="Usuario"
            labelFor="login-username"
            intent={formState.errors.username ? 'danger' : 'none'}
            helperText={formState.errors.username?.message}
          >
            <InputGroup
              id="login-username"
              autoComplete="username"
              disabled={busy}
              inputRef={username.ref}
              name={username.name}
              onChange={username.onChange}
              onBlur={username.onBlur}
            />
          </FormGroup>
          <FormGroup
            label="Contraseña"
            labelFor="login-password"
            intent={formState.errors.password ? 'danger' : 'none'}
            helperText={formState.errors.password?.message}
          >
            <InputGroup
              id="login-password"
              type="password"
              autoComplete="current-password"
              disabled={busy}
              inputRef={password.ref}
              name={password.name}
              onChange={password.onChange}
              onBlur={password.onBlur}
            />
          </FormGroup>
          {captchaRequired && (
            <Suspense fallback={null}>
              <AltchaWidget challengeUrl={captchaChallengeUrl} />
            </Suspense>
          )}
          <Button
            type="submit"
            intent="primary"
            fill
            loading={busy}
            disabled={busy || !hydrated}
            text="Ingresar"
          />
        </form>
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
