import { Button, Callout, H1 } from '@blueprintjs/core';
import { Link } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useForm, useWatch } from 'react-hook-form';
import { PasswordReset } from '../../domain/schemas/session';
import type { passwordResetMachine } from '../../machines/password-reset.machine';
import { PasswordField } from '../account/password-field';
import { PasswordRulesList } from '../account/password-rules-list';
import { structResolver } from '../common/struct-resolver';
import { ToastRegion } from '../common/toast-region';
import '../account/account.css';

const RULES_ID = 'reiniciar-reglas';

function RequestNewLink() {
  return (
    <p>
      ¿Tu enlace expiró o ya lo usaste? <Link to="/auth/recuperar-contrasena/">Solicita un nuevo correo</Link>
    </p>
  );
}

/** A link without its token cannot reset anything: say so and offer a new e-mail. */
function MissingToken() {
  return (
    <Callout intent="danger" title="El enlace no es válido">
      <p>
        Al enlace le falta el código para cambiar tu contraseña. Abre el enlace completo del correo que te
        enviamos o solicita uno nuevo.
      </p>
      <Link to="/auth/recuperar-contrasena/">Solicitar un nuevo correo de restablecimiento</Link>
    </Callout>
  );
}

function NewPasswordForm({ machine, token }: { machine: typeof passwordResetMachine; token: string }) {
  const [state, send] = useMachine(machine);
  const { register, handleSubmit, formState, control } = useForm<PasswordReset>({
    defaultValues: { new_password: '', token },
    resolver: structResolver(PasswordReset),
  });
  const typed = useWatch({ control, name: 'new_password' });
  const busy = state.hasTag('busy');
  const { message, error } = state.context;

  // Spec §4: the message shows, then the login screen follows (the machine's REDIRECT_MS).
  if (state.matches('done') || state.matches('leaving')) {
    return (
      <Callout intent="success" role="status">
        <p>{message}</p>
        <p>
          En unos segundos te llevaremos a la pantalla de ingreso.{' '}
          <Link to="/auth/ingresar/">Ingresar ahora</Link>
        </p>
      </Callout>
    );
  }

  return (
    <>
      <form
        noValidate
        aria-label="Cambiar clave"
        onSubmit={handleSubmit((values) => send({ type: 'passwordReset.submit', values }))}
      >
        <PasswordField
          id="reiniciar-password"
          label="Nueva contraseña"
          autoComplete="new-password"
          error={formState.errors.new_password?.message}
          disabled={busy}
          describedBy={RULES_ID}
          field={register('new_password')}
        />
        <PasswordRulesList id={RULES_ID} value={typed} />
        <Button type="submit" intent="primary" loading={busy} disabled={busy} text="Guardar contraseña" />
      </form>
      <RequestNewLink />
      <ToastRegion
        toasts={error ? [{ key: 'reiniciar-error', intent: 'danger', message: error }] : []}
        onDismiss={() => send({ type: 'passwordReset.dismiss' })}
      />
    </>
  );
}

/** /auth/reiniciar-contrasena/?token=… 'Cambiar clave': the new password for the account of the e-mailed link. */
export function NewPasswordPage({
  machine,
  token,
}: {
  machine: typeof passwordResetMachine;
  token: string | null;
}) {
  return (
    <section aria-labelledby="reiniciar-titulo" className="flujo-account-page">
      <H1 id="reiniciar-titulo">Cambiar clave</H1>
      {token ? <NewPasswordForm machine={machine} token={token} /> : <MissingToken />}
    </section>
  );
}
