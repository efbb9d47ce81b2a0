import { Button, Callout, Checkbox, H1 } from '@blueprintjs/core';
import { Link } from '@tanstack/react-router';
import { useMachine } from '@xstate/react';
import { useForm } from 'react-hook-form';
import { SignUpForm } from '../../domain/schemas/session';
import type { signUpMachine } from '../../machines/sign-up.machine';
import { structResolver } from '../common/struct-resolver';
import { TextField } from '../common/text-field';
import { ToastRegion } from '../common/toast-region';
import { AltchaWidget } from './altcha-widget';

type TextFieldName = Exclude<keyof SignUpForm, 'receive_notification'>;

const FIELDS: { name: TextFieldName; label: string; type: string; autoComplete: string }[] = [
  { name: 'name', label: 'Nombre', type: 'text', autoComplete: 'given-name' },
  { name: 'last_name', label: 'Apellido', type: 'text', autoComplete: 'family-name' },
  { name: 'username', label: 'Usuario', type: 'text', autoComplete: 'username' },
  { name: 'mobile_phone', label: 'Teléfono celular', type: 'tel', autoComplete: 'tel' },
  { name: 'company', label: 'Empresa', type: 'text', autoComplete: 'organization' },
  { name: 'email', label: 'Correo electrónico', type: 'email', autoComplete: 'email' },
  { name: 'password1', label: 'Contraseña', type: 'password', autoComplete: 'new-password' },
  { name: 'password2', label: 'Confirmar contraseña', type: 'password', autoComplete: 'new-password' },
];

const EMPTY: SignUpForm = {
  name: '',
  last_name: '',
  username: '',
  mobile_phone: '',
  company: '',
  email: '',
  password1: '',
  password2: '',
  receive_notification: false,
};

/** /auth/registro/ 'Crea tu perfil': fields in react-hook-form, the CAPTCHA and the call in the machine. */
export function SignUpPage({
  machine,
  challengeUrl,
}: {
  machine: typeof signUpMachine;
  /** Null when the CAPTCHA cannot run here (reCAPTCHA configured, or its configuration failed to load). */
  challengeUrl: string | null;
}) {
  const [state, send] = useMachine(machine);
  const { register, handleSubmit, formState } = useForm<SignUpForm>({
    defaultValues: EMPTY,
    resolver: structResolver(SignUpForm),
  });
  const busy = state.hasTag('busy');
  const { fieldErrors, message } = state.context;
  const notifications = register('receive_notification');

  return (
    <section aria-labelledby="registro-titulo" className="flujo-account-page">
      <H1 id="registro-titulo">Crea tu perfil</H1>
      <form
        noValidate
        aria-label="Crea tu perfil"
        onSubmit={handleSubmit((values) => send({ type: 'signUp.submit', values }))}
      >
        {FIELDS.map((field) => (
          <TextField
            key={field.name}
            id={`registro-${field.name}`}
            label={field.label}
            type={field.type}
            autoComplete={field.autoComplete}
            error={formState.errors[field.name]?.message ?? fieldErrors[field.name]?.[0]}
            disabled={busy}
            registration={register(field.name)}
          />
        ))}
        <Checkbox
          label="Deseo recibir notificaciones"
          disabled={busy}
          inputRef={notifications.ref}
          name={notifications.name}
          onChange={notifications.onChange}
          onBlur={notifications.onBlur}
        />
        {challengeUrl && <AltchaWidget challengeUrl={challengeUrl} />}
        {state.matches('verifying') && <Callout intent="primary">Verificando que no eres un robot…</Callout>}
        <Button type="submit" intent="primary" loading={busy} disabled={busy} text="Siguiente" />
      </form>
      <p>
        ¿Ya tienes cuenta? <Link to="/auth/ingresar/">Ingresa</Link>
      </p>
      <ToastRegion
        toasts={message ? [{ key: 'registro', intent: 'danger', message }] : []}
        onDismiss={() => send({ type: 'signUp.dismiss' })}
      />
    </section>
  );
}
