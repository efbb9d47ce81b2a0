import { Button, Callout, FormGroup, H1, InputGroup } from '@blueprintjs/core';
import { Link } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { PasswordResetRequest } from '../../domain/schemas/session';
import type { passwordResetRequestMachine } from '../../machines/password-reset-request.machine';
import { structResolver } from '../common/struct-resolver';
import { ToastRegion } from '../common/toast-region';
import '../account/account.css';

const EMPTY: PasswordResetRequest = { email: '' };

/** /auth/recuperar-contrasena/ 'Restablecer contraseña': the address in react-hook-form, the call in the machine. */
export function ResetRequestPage({ machine }: { machine: typeof passwordResetRequestMachine }) {
  const [state, send] = useMachine(machine);
  const { register, handleSubmit, reset, formState } = useForm<PasswordResetRequest>({
    defaultValues: EMPTY,
    resolver: structResolver(PasswordResetRequest),
  });
  const busy = state.hasTag('busy');
  const sent = state.matches('sent');
  const { message, error } = state.context;
  const email = register('email');
  const fieldError = formState.errors.email?.message;

  // Spec §4: on success the server's message is shown and the form cleared; a failure keeps the address.
  useEffect(() => {
    if (sent) reset(EMPTY);
  }, [sent, reset]);

  return (
    <section aria-labelledby="recuperar-titulo" className="flujo-account-page">
      <H1 id="recuperar-titulo">Restablecer contraseña</H1>
      <p>
        Escribe el correo electrónico de tu cuenta y te enviaremos un enlace para crear una nueva contraseña.
      </p>
      {sent && message && (
        <Callout intent="success" role="status">
          {message}
        </Callout>
      )}
      <form
        noValidate
        aria-label="Restablecer contraseña"
        onSubmit={handleSubmit((values) => send({ type: 'resetRequest.submit', values }))}
      >
        <FormGroup
          label="Correo electrónico"
          labelFor="recuperar-email"
          intent={fieldError ? 'danger' : 'none'}
          helperText={fieldError}
        >
          <InputGroup
            id="recuperar-email"
            type="email"
            autoComplete="email"
            inputMode="email"
            intent={fieldError ? 'danger' : 'none'}
            aria-invalid={fieldError ? true : undefined}
            disabled={busy}
            inputRef={email.ref}
            name={email.name}
            onChange={email.onChange}
            onBlur={email.onBlur}
          />
        </FormGroup>
        <Button type="submit" intent="primary" loading={busy} disabled={busy} text="Enviar enlace" />
      </form>
      <p>
        ¿La recordaste? <Link to="/auth/ingresar/">Volver a ingresar</Link>
      </p>
      <ToastRegion
        toasts={error ? [{ key: 'recuperar-error', intent: 'danger', message: error }] : []}
        onDismiss={() => send({ type: 'resetRequest.dismiss' })}
      />
    </section>
  );
}
