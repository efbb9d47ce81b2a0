import { Button } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { DemoRequest } from '../../domain/schemas/session';
import { DEMO_REQUEST_SENT, type demoRequestMachine } from '../../machines/demo-request.machine';
import { structResolver } from '../common/struct-resolver';
import { TextField } from '../common/text-field';
import { type ToastItem, ToastRegion } from '../common/toast-region';
import { useHydrated } from '../common/use-hydrated';

/** Every field is required (the DemoRequest struct); the form says so once, above the fields. */
const REQUIRED_NOTE_ID = 'demo-obligatorios';

const EMPTY: DemoRequest = { first_name: '', last_name: '', phone: '', email: '', company: '' };

const FIELDS: { name: keyof DemoRequest; label: string; type: string; autoComplete: string }[] = [
  { name: 'first_name', label: 'Nombre', type: 'text', autoComplete: 'given-name' },
  { name: 'last_name', label: 'Apellido', type: 'text', autoComplete: 'family-name' },
  { name: 'phone', label: 'Teléfono', type: 'tel', autoComplete: 'tel' },
  { name: 'email', label: 'Correo electrónico', type: 'email', autoComplete: 'email' },
  { name: 'company', label: 'Empresa', type: 'text', autoComplete: 'organization' },
];

/** The demo-request form: fields live in react-hook-form, the submission workflow in the machine. */
export function DemoRequestForm({ machine }: { machine: typeof demoRequestMachine }) {
  const [state, send] = useMachine(machine);
  // A prerendered form sends nothing until React handles it: a native submit would put the data in the URL.
  const hydrated = useHydrated();
  const { register, handleSubmit, reset, formState } = useForm<DemoRequest>({
    defaultValues: EMPTY,
    resolver: structResolver(DemoRequest),
  });
  const busy = state.hasTag('busy');
  const sent = state.matches('sent');

  // A sent request clears the form; a failed one keeps every value so nothing typed is lost.
  useEffect(() => {
    if (sent) reset(EMPTY);
  }, [sent, reset]);

  const toasts: ToastItem[] = sent
    ? [{ key: 'sent', intent: 'success', message: DEMO_REQUEST_SENT }]
    : state.context.errors.map((message, index) => ({ key: `error-${index}`, intent: 'danger', message }));

  return (
    <form
      noValidate
      aria-label="Solicitar demo"
      aria-describedby={REQUIRED_NOTE_ID}
      onSubmit={handleSubmit((values) => send({ type: 'demo.submit', values }))}
    >
      <p id={REQUIRED_NOTE_ID} className="site-note">
        Todos los campos son obligatorios.
      </p>
      {FIELDS.map((field) => (
        <TextField
          key={field.name}
          id={`demo-${field.name}`}
          label={field.label}
          type={field.type}
          autoComplete={field.autoComplete}
          error={formState.errors[field.name]?.message}
          disabled={busy}
          required
          registration={register(field.name)}
        />
      ))}
      <Button
        type="submit"
        intent="primary"
        loading={busy}
        disabled={busy || !hydrated}
        text="Solicitar demo"
      />
      {/* NOTE: Blueprint's overlay renders eagerly without a DOM and lazily with one, so a prerendered toaster
          would not match on hydration; it mounts right after instead (it is empty until a toast shows). */}
      {hydrated && <ToastRegion toasts={toasts} onDismiss={() => send({ type: 'demo.dismiss' })} />}
    </form>
  );
}
