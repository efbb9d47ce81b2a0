import { Button, H1 } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { PasswordChange } from '../../domain/schemas/session';
import { PASSWORD_CHANGE_FIELDS, type passwordChangeMachine } from '../../machines/password-change.machine';
import { structResolver } from '../common/struct-resolver';
import { type ToastItem, ToastRegion } from '../common/toast-region';
import { PasswordField } from './password-field';
import { PasswordRulesList } from './password-rules-list';
import './account.css';

const EMPTY: PasswordChange = { old_password: '', new_password1: '', new_password2: '' };
const HINTS_ID = 'cambiar-clave-reglas';

/** /cambiar-clave/ 'Cambiar clave' of a signed-in user: fields in react-hook-form, the call in the machine. */
export function PasswordChangePage({ machine }: { machine: typeof passwordChangeMachine }) {
  const [state, send] = useMachine(machine);
  const { register, handleSubmit, reset, setFocus, formState } = useForm<PasswordChange>({
    defaultValues: EMPTY,
    resolver: structResolver(PasswordChange),
  });
  const busy = state.hasTag('busy');
  const changed = state.matches('changed');
  const { message, error, fieldErrors } = state.context;
  const errors = formState.errors;
  // The form's own check first, else what the server said of the field (a wrong current password).
  const messageOf = (name: keyof PasswordChange) => errors[name]?.message ?? fieldErrors[name]?.[0];

  // Passwords do not linger in the form once changed; a failure keeps them for a correction.
  useEffect(() => {
    if (changed) reset(EMPTY);
  }, [changed, reset]);

  // A field the server refused takes the focus, so its message is read out and the correction starts there.
  useEffect(() => {
    const first = PASSWORD_CHANGE_FIELDS.find((name) => fieldErrors[name] !== undefined);
    if (first) setFocus(first);
  }, [fieldErrors, setFocus]);

  const toasts: ToastItem[] = [];
  if (changed && message) toasts.push({ key: 'cambiar-clave-ok', intent: 'success', message });
  if (error) toasts.push({ key: 'cambiar-clave-error', intent: 'danger', message: error });

  return (
    <section aria-labelledby="cambiar-clave-titulo" className="flujo-account-page">
      <H1 id="cambiar-clave-titulo">Cambiar clave</H1>
      <form
        noValidate
        aria-label="Cambiar clave"
        onSubmit={handleSubmit((values) => send({ type: 'passwordChange.submit', values }))}
      >
        <PasswordField
          id="cambiar-clave-actual"
          label="Contraseña actual"
          autoComplete="current-password"
          error={messageOf('old_password')}
          disabled={busy}
          field={register('old_password')}
        />
        <PasswordField
          id="cambiar-clave-nueva"
          label="Nueva contraseña"
          autoComplete="new-password"
          error={messageOf('new_password1')}
          disabled={busy}
          describedBy={HINTS_ID}
          field={register('new_password1')}
        />
        {/* Spec §5: the similarity and common-password rules are static hints the server enforces. */}
        <PasswordRulesList id={HINTS_ID} />
        <PasswordField
          id="cambiar-clave-confirmar"
          label="Confirmar contraseña"
          autoComplete="new-password"
          error={messageOf('new_password2')}
          disabled={busy}
          field={register('new_password2')}
        />
        <Button type="submit" intent="primary" loading={busy} disabled={busy} text="Cambiar contraseña" />
      </form>
      <ToastRegion toasts={toasts} onDismiss={() => send({ type: 'passwordChange.dismiss' })} />
    </section>
  );
}
