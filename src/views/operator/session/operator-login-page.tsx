import { Button, Callout, Card, FormGroup, H1, InputGroup } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useForm } from 'react-hook-form';
import { MfaCodeForm } from '../../../domain/schemas/operator-session';
import type { operatorSessionMachine } from '../../../machines/operator-session.machine';
import { CredentialsForm } from '../../auth/credentials-form';
import { BrandLogo } from '../../common/brand-logo';
import { structResolver } from '../../common/struct-resolver';
import './operator-login.css';

/**
 * /operacion/ingresar/: Flujo's operators sign in with their password, then the code of their authenticator app
 * (or a recovery code). The forms hold the fields; the machine owns the calls and the outcome.
 */
export function OperatorLoginPage({
  machine,
  captchaChallengeUrl,
}: {
  machine: typeof operatorSessionMachine;
  /** Where the ALTCHA widget gets its 'login' challenges, shown once the server asks for the CAPTCHA. */
  captchaChallengeUrl: string;
}) {
  const [state, send] = useMachine(machine);
  const busy = state.hasTag('busy');
  const { error, recovery, captchaRequired } = state.context;
  const onCodeStep = state.matches('code') || state.matches('verifyingCode');

  return (
    <section className="flujo-operator-login" aria-labelledby="operador-ingresar-titulo">
      <Card className="flujo-operator-login-card">
        <p className="flujo-operator-login-brand">
          <BrandLogo />
          <span className="flujo-operator-login-wordmark">Flujo</span>
          <span className="flujo-operator-login-place">Operación</span>
        </p>
        <H1 id="operador-ingresar-titulo">Ingreso de operadores</H1>
        {error && !state.matches('locked') && (
          <Callout intent="danger" role="alert" className="flujo-operator-login-error">
            {error}
          </Callout>
        )}
        {(state.matches('password') || state.matches('checkingPassword')) && (
          <CredentialsForm
            ariaLabel="Primer paso: usuario y contraseña"
            ids={{ username: 'operador-usuario', password: 'operador-contrasena' }}
            intro={<p>Paso 1 de 2: tu usuario y contraseña de operador.</p>}
            autoFocus
            busy={busy}
            submitText="Continuar"
            captchaChallengeUrl={captchaRequired ? captchaChallengeUrl : null}
            onSubmit={(credentials) => send({ type: 'operatorSession.submitPassword', credentials })}
          />
        )}
        {onCodeStep && (
          <CodeStep
            // A new form when the kind of code changes: a code is typed afresh (a recovery code is not six digits).
            key={recovery ? 'recuperacion' : 'aplicacion'}
            busy={busy}
            recovery={recovery}
            onSubmit={(code) => send({ type: 'operatorSession.submitCode', code })}
            onToggle={() =>
              send({
                type: recovery ? 'operatorSession.useAuthenticator' : 'operatorSession.useRecoveryCode',
              })
            }
            onRestart={() => send({ type: 'operatorSession.restart' })}
          />
        )}
        {state.matches('locked') && (
          <>
            <Callout intent="danger" role="alert" title="Acceso bloqueado">
              {error}
            </Callout>
            <Button
              className="flujo-operator-login-secondary"
              text="Volver a ingresar"
              onClick={() => send({ type: 'operatorSession.restart' })}
            />
          </>
        )}
        {state.matches('signedIn') && (
          <Callout intent="success" role="status">
            Verificación correcta. Abriendo la mesa de operación…
          </Callout>
        )}
      </Card>
    </section>
  );
}

function CodeStep({
  busy,
  recovery,
  onSubmit,
  onToggle,
  onRestart,
}: {
  busy: boolean;
  recovery: boolean;
  onSubmit: (code: string) => void;
  onToggle: () => void;
  onRestart: () => void;
}) {
  const { register, handleSubmit, formState } = useForm<MfaCodeForm>({
    defaultValues: { code: '' },
    resolver: structResolver(MfaCodeForm),
  });
  const code = register('code');
  const label = recovery ? 'Código de recuperación' : 'Código de verificación';
  return (
    <form
      noValidate
      aria-label="Segundo paso: código"
      onSubmit={handleSubmit((values) => onSubmit(values.code))}
    >
      <p>
        {recovery
          ? 'Paso 2 de 2: escribe uno de tus códigos de recuperación. Cada código sirve una sola vez.'
          : 'Paso 2 de 2: escribe el código de 6 dígitos que muestra tu aplicación de autenticación.'}
      </p>
      <FormGroup
        label={label}
        labelFor="operador-codigo"
        intent={formState.errors.code ? 'danger' : 'none'}
        helperText={formState.errors.code?.message}
      >
        <InputGroup
          id="operador-codigo"
          autoComplete="one-time-code"
          inputMode={recovery ? 'text' : 'numeric'}
          autoFocus
          disabled={busy}
          inputRef={code.ref}
          name={code.name}
          onChange={code.onChange}
          onBlur={code.onBlur}
        />
      </FormGroup>
      <Button type="submit" intent="primary" fill loading={busy} disabled={busy} text="Verificar" />
      <div className="flujo-operator-login-links">
        <Button
          variant="minimal"
          disabled={busy}
          text={recovery ? 'Usar el código de la aplicación' : 'Usar un código de recuperación'}
          onClick={onToggle}
        />
        <Button variant="minimal" disabled={busy} text="Volver a ingresar" onClick={onRestart} />
      </div>
    </form>
  );
}
