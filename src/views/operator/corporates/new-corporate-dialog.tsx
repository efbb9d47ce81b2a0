import {
  Alert,
  Button,
  Callout,
  Dialog,
  DialogBody,
  DialogFooter,
  FormGroup,
  InputGroup,
} from '@blueprintjs/core';
import { type FieldError, type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { CreateCorporateBody } from '../../../domain/schemas/operator-corporates';
import { fieldErrors } from '../../../domain/schemas/validate';
import type { BackOfficeIntent } from '../../../machines/back-office-action';
import { corporateActionOf } from '../../../machines/corporate-actions.machine';
import {
  type CorporateActionsSend,
  type CorporateActionsSnapshot,
  NO_ANSWER,
} from './corporate-actions-view';

export type NewCorporateValues = CreateCorporateBody;

const EMPTY: NewCorporateValues = { rfc: '', name: '', admin: { name: '', last_name: '', email: '' } };

/** The request's own struct as resolver; its dotted keys ('admin.email') nested the way react-hook-form reads them. */
const resolver: Resolver<NewCorporateValues> = async (values) => {
  const entries = Object.entries(fieldErrors(CreateCorporateBody, values));
  if (entries.length === 0) return { values, errors: {} };
  return { values: {}, errors: nestErrors(entries) };
};

function nestErrors(entries: [string, string[]][]): FieldErrors<NewCorporateValues> {
  const errors: Record<string, unknown> = {};
  for (const [path, messages] of entries) {
    const keys = path.split('.');
    let node = errors;
    for (const key of keys.slice(0, -1)) {
      node[key] ??= {};
      node = node[key] as Record<string, unknown>;
    }
    node[keys[keys.length - 1] ?? path] = { type: 'validate', message: messages[0] } satisfies FieldError;
  }
  return errors as FieldErrors<NewCorporateValues>;
}

const FIELDS = [
  { name: 'rfc', label: 'RFC', autoComplete: 'off' },
  { name: 'name', label: 'Razón social', autoComplete: 'organization' },
  { name: 'admin.name', label: 'Nombre del administrador', autoComplete: 'given-name' },
  { name: 'admin.last_name', label: 'Apellidos del administrador', autoComplete: 'family-name' },
  { name: 'admin.email', label: 'Correo del administrador', autoComplete: 'email' },
] as const;

/**
 * 'Nuevo corporativo' as the `corporate-actions` machine holds it: open while the operator writes it, while it
 * is sent, after a lost answer and after a refusal (whose words show above the fields). A 409 naming the RFC's
 * provider asks first; 'Convertir en corporativo' sends it again as a new intent with `confirm_promotion`.
 */
export function NewCorporateDialog(props: {
  snapshot: CorporateActionsSnapshot;
  send: CorporateActionsSend;
}) {
  const { snapshot, send } = props;
  const intent = snapshot.context.intent;
  const isCreate = corporateActionOf(intent)?.action === 'create';
  const refused = snapshot.matches({ ready: 'refused' });
  const isOpen =
    isCreate && !snapshot.matches({ ready: 'idle' }) && !snapshot.matches({ ready: 'succeeded' });
  const promotion = refused ? snapshot.context.failure?.fields.confirm_promotion?.[0] : undefined;
  const close = () => send(refused ? { type: 'outcome.dismiss' } : { type: 'action.cancel' });
  return (
    <>
      <Dialog isOpen={isOpen} onClose={close} title="Nuevo corporativo">
        {isOpen && intent && (
          <NewCorporateForm intent={intent} snapshot={snapshot} send={send} close={close} />
        )}
      </Dialog>
      <Alert
        isOpen={promotion !== undefined}
        intent="warning"
        cancelButtonText="Cancelar"
        confirmButtonText="Convertir en corporativo"
        // Not now: the form stays open with what was typed.
        onCancel={() => intent && send({ type: 'action.open', intent })}
        onConfirm={() => {
          const values = intent?.input as NewCorporateValues | null;
          if (intent && values)
            send({
              type: 'action.run',
              intent: { ...intent, input: { ...values, confirm_promotion: true } },
            });
        }}
      >
        <p>{promotion}</p>
      </Alert>
    </>
  );
}

function NewCorporateForm(props: {
  intent: BackOfficeIntent;
  snapshot: CorporateActionsSnapshot;
  send: CorporateActionsSend;
  close: () => void;
}) {
  const { snapshot, send, intent } = props;
  const { register, handleSubmit, formState, getFieldState } = useForm<NewCorporateValues>({
    defaultValues: EMPTY,
    resolver,
  });
  const busy = snapshot.hasTag('busy');
  const serverFields = snapshot.matches('editing') ? (snapshot.context.failure?.fields ?? {}) : {};
  const atFields = FIELDS.some((field) => serverFields[field.name] !== undefined);
  const failure = snapshot.matches('answerLost')
    ? NO_ANSWER
    : atFields
      ? null
      : (snapshot.context.failure?.message ?? null);
  const submit = handleSubmit((values) => {
    if (snapshot.matches('answerLost')) return send({ type: 'action.retry' });
    // After a refusal the form is sent again as a new intent.
    if (!snapshot.matches('editing')) send({ type: 'action.open', intent });
    send({ type: 'action.submit', input: values });
  });
  return (
    <form noValidate aria-label="Nuevo corporativo" onSubmit={submit}>
      <DialogBody>
        {failure && (
          <Callout intent="danger" role="alert">
            {failure}
          </Callout>
        )}
        <p>Se enviará al administrador un enlace de 72 horas para elegir su contraseña.</p>
        {FIELDS.map((field) => {
          const id = `nuevo-corporativo-${field.name.replace('.', '-')}`;
          const error = getFieldState(field.name, formState).error?.message ?? serverFields[field.name]?.[0];
          const input = register(field.name);
          return (
            <FormGroup
              key={field.name}
              label={field.label}
              labelFor={id}
              intent={error ? 'danger' : 'none'}
              helperText={error}
            >
              <InputGroup
                id={id}
                type={field.name === 'admin.email' ? 'email' : 'text'}
                autoComplete={field.autoComplete}
                intent={error ? 'danger' : 'none'}
                aria-invalid={error ? true : undefined}
                disabled={busy}
                inputRef={input.ref}
                name={input.name}
                onChange={input.onChange}
                onBlur={input.onBlur}
              />
            </FormGroup>
          );
        })}
      </DialogBody>
      <DialogFooter
        actions={
          <>
            <Button text="Cancelar" onClick={props.close} />
            <Button type="submit" intent="primary" text="Crear y enviar invitación" loading={busy} />
          </>
        }
      />
    </form>
  );
}
