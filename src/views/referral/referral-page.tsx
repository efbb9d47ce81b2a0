import { Button, Card, H1, H2 } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { paths } from '../../domain/paths';
import { Referral } from '../../domain/schemas/session';
import type { referralMachine } from '../../machines/referral.machine';
import { structResolver } from '../common/struct-resolver';
import { TextField } from '../common/text-field';
import { type ToastItem, ToastRegion } from '../common/toast-region';
import { PROVIDER_SECTIONS } from '../dashboard/dashboard-sections';
import { SectionHelp } from '../dashboard/section-help';
import './referral.css';

const SECTION = PROVIDER_SECTIONS.find((section) => section.path === paths.referClient);
const REQUIRED_NOTE_ID = 'referido-obligatorios';
const EMPTY: Referral = { name: '', company: '', email: '', phone: '' };

// type=tel brings a phone's number pad; the struct takes 10 digits (src/domain/phone.ts).
const FIELDS: { name: keyof Referral; label: string; type: string; autoComplete: string }[] = [
  { name: 'name', label: 'Nombre', type: 'text', autoComplete: 'off' },
  { name: 'company', label: 'Empresa', type: 'text', autoComplete: 'off' },
  { name: 'email', label: 'Correo electrónico', type: 'email', autoComplete: 'off' },
  { name: 'phone', label: 'Teléfono', type: 'tel', autoComplete: 'off' },
];

/**
 * /dashboard/referir-cliente/ (spec §2, §5, §8): the referral form. Fields live in react-hook-form with the
 * server's own struct (all four required, phone digits, e-mail); the submission is the referral machine.
 */
export function ReferralPage({ machine }: { machine: typeof referralMachine }) {
  const [state, send] = useMachine(machine);
  const { register, handleSubmit, reset, formState } = useForm<Referral>({
    defaultValues: EMPTY,
    resolver: structResolver(Referral),
  });
  const busy = state.hasTag('busy');
  const sent = state.matches('sent');

  // Spec §8: a sent referral clears the form; a failed one keeps what was typed.
  useEffect(() => {
    if (sent) reset(EMPTY);
  }, [sent, reset]);

  const toasts: ToastItem[] = sent
    ? [{ key: 'sent', intent: 'success', message: state.context.message ?? '' }]
    : state.context.errors.map((message, index) => ({ key: `error-${index}`, intent: 'danger', message }));

  return (
    <section aria-labelledby="referir-titulo" className="flujo-referral">
      <H1 id="referir-titulo">{SECTION?.label ?? 'Referir cliente'}</H1>
      {SECTION && <SectionHelp>{SECTION.help}</SectionHelp>}
      <Card className="flujo-referral-card">
        <H2 className="flujo-referral-card-title">Datos de tu cliente</H2>
        <form
          noValidate
          aria-label="Referir cliente"
          aria-describedby={REQUIRED_NOTE_ID}
          onSubmit={handleSubmit((values) => send({ type: 'referral.submit', values }))}
        >
          <p id={REQUIRED_NOTE_ID} className="bp6-text-muted">
            Todos los campos son obligatorios.
          </p>
          <div className="flujo-referral-fields">
            {FIELDS.map((field) => (
              <TextField
                key={field.name}
                id={`referido-${field.name}`}
                label={field.label}
                type={field.type}
                autoComplete={field.autoComplete}
                error={formState.errors[field.name]?.message}
                disabled={busy}
                required
                registration={register(field.name)}
              />
            ))}
          </div>
          <Button type="submit" intent="primary" loading={busy} disabled={busy} text="Enviar recomendación" />
        </form>
      </Card>
      <ToastRegion toasts={toasts} onDismiss={() => send({ type: 'referral.dismiss' })} />
    </section>
  );
}
