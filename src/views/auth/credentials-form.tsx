import { Button } from '@blueprintjs/core';
import { lazy, type ReactNode, Suspense } from 'react';
import { useForm } from 'react-hook-form';
import { LoginRequest } from '../../domain/schemas/session';
import { structResolver } from '../common/struct-resolver';
import { TextField } from '../common/text-field';

// Loaded only once the server asks for the CAPTCHA: the prerendered login page stays light (decision 0026's
// budgets, decision 0061).
const AltchaWidget = lazy(() =>
  import('./altcha-widget').then((module) => ({ default: module.AltchaWidget })),
);

/**
 * The username and password form of both doors (customers' /auth/ingresar/, operators' /operacion/ingresar/):
 * checked with LoginRequest, with the ALTCHA widget once the server asks for the CAPTCHA. Each door gives its
 * own field ids, form name and submit text.
 */
export function CredentialsForm({
  ariaLabel,
  ids,
  intro,
  autoFocus = false,
  busy,
  submitDisabled = busy,
  submitText,
  captchaChallengeUrl,
  onSubmit,
}: {
  ariaLabel: string;
  ids: { username: string; password: string };
  /** Shown above the fields. */
  intro?: ReactNode;
  autoFocus?: boolean;
  busy: boolean;
  submitDisabled?: boolean;
  submitText: string;
  /** Set when the server asked for the CAPTCHA: the widget shows and each try solves it. */
  captchaChallengeUrl: string | null;
  onSubmit: (credentials: LoginRequest) => void;
}) {
  const { register, handleSubmit, formState } = useForm<LoginRequest>({
    defaultValues: { username: '', password: '' },
    resolver: structResolver(LoginRequest),
  });
  return (
    <form noValidate aria-label={ariaLabel} onSubmit={handleSubmit(onSubmit)}>
      {intro}
      <TextField
        id={ids.username}
        label="Usuario"
        autoComplete="username"
        autoFocus={autoFocus}
        error={formState.errors.username?.message}
        disabled={busy}
        registration={register('username')}
      />
      <TextField
        id={ids.password}
        label="Contraseña"
        type="password"
        autoComplete="current-password"
        error={formState.errors.password?.message}
        disabled={busy}
        registration={register('password')}
      />
      {captchaChallengeUrl && (
        <Suspense fallback={null}>
          <AltchaWidget challengeUrl={captchaChallengeUrl} />
        </Suspense>
      )}
      <Button
        type="submit"
        intent="primary"
        fill
        loading={busy}
        disabled={submitDisabled}
        text={submitText}
      />
    </form>
  );
}
