import { Button, Callout, Checkbox, FormGroup, H1, H2, InputGroup, Spinner } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { type Profile, ProfileUpdate } from '../../domain/schemas/session';
import { PROFILE_SAVED, type profileMachine } from '../../machines/profile.machine';
import { structResolver } from '../common/struct-resolver';
import { type ToastItem, ToastRegion } from '../common/toast-region';
import './account.css';
import { TextField } from '../common/text-field';

type TextFieldName = Exclude<keyof ProfileUpdate, 'receive_notification'>;

const FIELDS: { name: TextFieldName; label: string; type: string; autoComplete: string }[] = [
  { name: 'first_name', label: 'Nombre', type: 'text', autoComplete: 'given-name' },
  { name: 'last_name', label: 'Apellido', type: 'text', autoComplete: 'family-name' },
  { name: 'mobile_phone', label: 'Teléfono', type: 'tel', autoComplete: 'tel' },
  { name: 'company', label: 'Empresa', type: 'text', autoComplete: 'organization' },
];

type ClabeField = 'disbursement_clabe' | 'wallet_clabe' | 'credit_payment_clabe';

const CLABES: { name: ClabeField; label: string }[] = [
  { name: 'disbursement_clabe', label: 'CLABE de dispersión' },
  { name: 'wallet_clabe', label: 'CLABE de monedero' },
  { name: 'credit_payment_clabe', label: 'CLABE para pago de crédito' },
];

function editable(profile: Profile): ProfileUpdate {
  return {
    first_name: profile.first_name,
    last_name: profile.last_name,
    mobile_phone: profile.mobile_phone,
    company: profile.company,
    receive_notification: profile.receive_notification,
  };
}

function ProfileForm({
  profile,
  busy,
  onSave,
}: {
  profile: Profile;
  busy: boolean;
  onSave: (values: ProfileUpdate) => void;
}) {
  // `values` re-fills the form whenever the machine holds a new profile (loaded, or as the server saved it).
  const values = useMemo(() => editable(profile), [profile]);
  const { register, handleSubmit, formState } = useForm<ProfileUpdate>({
    values,
    resolver: structResolver(ProfileUpdate),
  });
  const notifications = register('receive_notification');
  const clabes = CLABES.filter((clabe) => profile[clabe.name]);

  return (
    <form noValidate aria-label="Perfil" onSubmit={handleSubmit(onSave)}>
      {FIELDS.map((field) => (
        <TextField
          key={field.name}
          id={`perfil-${field.name}`}
          label={field.label}
          type={field.type}
          autoComplete={field.autoComplete}
          error={formState.errors[field.name]?.message}
          disabled={busy}
          registration={register(field.name)}
        />
      ))}
      <Checkbox
        label="Recibir notificaciones"
        disabled={busy}
        inputRef={notifications.ref}
        name={notifications.name}
        onChange={notifications.onChange}
        onBlur={notifications.onBlur}
      />
      {/* Spec §3: the CLABEs are read-only and shown only when present. */}
      {clabes.length > 0 && (
        <>
          <H2 className="flujo-account-subtitle">Cuentas CLABE</H2>
          {clabes.map((clabe) => (
            <FormGroup key={clabe.name} label={clabe.label} labelFor={`perfil-${clabe.name}`}>
              <InputGroup id={`perfil-${clabe.name}`} readOnly value={profile[clabe.name] ?? ''} />
            </FormGroup>
          ))}
        </>
      )}
      <div className="flujo-account-actions">
        <Button type="submit" intent="primary" loading={busy} disabled={busy} text="Guardar" />
      </div>
    </form>
  );
}

/** /editar-perfil/ 'Perfil': loads the profile, then the form; the calls and their outcome in the machine. */
export function ProfilePage({ machine }: { machine: typeof profileMachine }) {
  const [state, send] = useMachine(machine);
  const { profile, error } = state.context;

  const toasts: ToastItem[] = [];
  if (state.matches({ ready: 'saved' }))
    toasts.push({ key: 'perfil-ok', intent: 'success', message: PROFILE_SAVED });
  if (state.matches({ ready: 'failed' }) && error)
    toasts.push({ key: 'perfil-error', intent: 'danger', message: error });

  return (
    <section aria-labelledby="perfil-titulo" className="flujo-account-page" aria-busy={state.hasTag('busy')}>
      <H1 id="perfil-titulo">Perfil</H1>
      {state.matches('loading') && <Spinner aria-label="Cargando perfil…" />}
      {state.matches('loadFailed') && (
        <Callout intent="danger" role="alert">
          <p>{error}</p>
          <Button intent="primary" text="Reintentar" onClick={() => send({ type: 'profile.retry' })} />
        </Callout>
      )}
      {state.matches('ready') && profile && (
        <ProfileForm
          profile={profile}
          busy={state.hasTag('busy')}
          onSave={(values) => send({ type: 'profile.save', values })}
        />
      )}
      <ToastRegion toasts={toasts} onDismiss={() => send({ type: 'profile.dismiss' })} />
    </section>
  );
}
