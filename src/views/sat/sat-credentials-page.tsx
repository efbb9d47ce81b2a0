import { Button, Callout, H1, Spinner } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useForm } from 'react-hook-form';
import { checkCompanyRfc } from '../../domain/rfc';
import { SAT_LINK_REJECTED_WARNING, SatStatus, type SatStatusCode } from '../../domain/sat-status';
import { TaxLink } from '../../domain/schemas/session';
import {
  SAT_LINK_FAILED,
  SAT_LINK_SENT,
  SAT_LINK_WAITING,
  type satLinkMachine,
  type TaxLinkFieldErrors,
} from '../../machines/sat-link.machine';
import { structResolver } from '../common/struct-resolver';
import { TextField } from '../common/text-field';
import { type ToastItem, ToastRegion } from '../common/toast-region';

const EMPTY: TaxLink = { rfc: '', ciec: '' };
const RFC_CHECK_DIGIT_HINT = 'El dígito verificador de este RFC no coincide; revísalo antes de enviar.';

function TaxLinkForm({
  busy,
  serverErrors,
  onSubmit,
}: {
  busy: boolean;
  /** The machine's field errors of the last rejected submission (spec §8 keeps the toast as well). */
  serverErrors: TaxLinkFieldErrors;
  onSubmit: (values: TaxLink) => void;
}) {
  // The same struct the server validates with: required fields and the RFC's format and check digit.
  const { register, handleSubmit, formState, watch } = useForm<TaxLink>({
    defaultValues: EMPTY,
    resolver: structResolver(TaxLink),
  });
  // SAT has issued real RFCs that fail the check digit, so the server accepts them: a hint, not an error.
  const rfcCheck = checkCompanyRfc(watch('rfc') ?? '');
  const checkDigitHint = rfcCheck.ok && !rfcCheck.generic && !rfcCheck.checkDigitValid;
  return (
    <form noValidate aria-label="Credenciales SAT" onSubmit={handleSubmit(onSubmit)}>
      <TextField
        id="sat-rfc"
        label="RFC"
        autoComplete="off"
        error={formState.errors.rfc?.message ?? serverErrors.rfc?.[0]}
        disabled={busy}
        registration={register('rfc')}
      />
      {checkDigitHint && <p className="bp6-text-muted">{RFC_CHECK_DIGIT_HINT}</p>}
      <TextField
        id="sat-ciec"
        label="Contraseña CIEC"
        type="password"
        autoComplete="off"
        error={formState.errors.ciec?.message ?? serverErrors.ciec?.[0]}
        disabled={busy}
        registration={register('ciec')}
      />
      <Button type="submit" intent="primary" loading={busy} disabled={busy} text="Enviar credenciales" />
    </form>
  );
}

/** /dashboard/sat-credentials/ 'Credenciales SAT': the link form, the wait for approval, then Pronto Pago. */
export function SatCredentialsPage({
  machine,
  satCredentials,
}: {
  machine: typeof satLinkMachine;
  satCredentials: SatStatusCode;
}) {
  const [state, send] = useMachine(machine, { input: { satCredentials } });
  const busy = state.hasTag('busy');

  const toasts: ToastItem[] = [];
  if (state.matches({ sent: 'confirmed' }))
    toasts.push({ key: 'sat-ok', intent: 'success', message: SAT_LINK_SENT });
  if (state.matches({ form: 'failed' }))
    toasts.push({ key: 'sat-error', intent: 'danger', message: SAT_LINK_FAILED });

  return (
    <section aria-labelledby="sat-titulo" className="flujo-account-page" aria-busy={busy}>
      <H1 id="sat-titulo">Credenciales SAT</H1>
      {(state.matches('loading') || state.matches('authorized')) && (
        <Spinner aria-label="Consultando tu vinculación…" />
      )}
      {state.matches('form') && (
        <>
          <p>Vincula tu cuenta del SAT con tu RFC y tu contraseña CIEC para ver y adelantar tus facturas.</p>
          {state.context.status === SatStatus.UNAUTHORIZED && (
            <Callout intent="warning" title={SAT_LINK_REJECTED_WARNING}>
              {state.context.reason}
            </Callout>
          )}
          <TaxLinkForm
            busy={state.matches({ form: 'submitting' })}
            serverErrors={state.context.fieldErrors}
            onSubmit={(values) => send({ type: 'satLink.submit', values })}
          />
        </>
      )}
      {state.matches('sent') && (
        <Callout intent="primary" title="Vinculación en revisión">
          <p role="status">{SAT_LINK_WAITING}</p>
        </Callout>
      )}
      <ToastRegion toasts={toasts} onDismiss={() => send({ type: 'satLink.dismiss' })} />
    </section>
  );
}
