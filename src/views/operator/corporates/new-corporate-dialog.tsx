import { Button, Callout, Dialog, DialogBody, DialogFooter, FormGroup, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import { type FieldError, type FieldErrors, type Resolver, useForm } from 'react-hook-form';
import { CreateCorporateBody } from '../../../domain/schemas/operator-corporates';
import { fieldErrors } from '../../../domain/schemas/validate';
import type { ActionResult } from './action-result';

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

type FieldName = (typeof FIELDS)[number]['name'];

/**
 * 'Nuevo corporativo': RFC, name and its first user. The server creates it in borrador (or promotes a provider
 * with that RFC) and e-mails the invitation; its field errors land on the fields, anything else above them.
 */
export function NewCorporateDialog(props: {
  isOpen: boolean;
  onClose: () => void;
  onSubmit: (values: NewCorporateValues) => Promise<ActionResult>;
}) {
  const { register, handleSubmit, reset, setError, formState, getFieldState } = useForm<NewCorporateValues>({
    defaultValues: EMPTY,
    resolver,
  });
  const [failure, setFailure] = useState<string | null>(null);
  const submit = handleSubmit(async (values) => {
    setFailure(null);
    const result = await props.onSubmit(values);
    if (result.ok) {
      reset(EMPTY);
      return;
    }
    const fields = Object.entries(result.fields ?? {}).filter(([name]) =>
      FIELDS.some((f) => f.name === name),
    );
    for (const [name, messages] of fields) setError(name as FieldName, { message: messages[0] });
    if (fields.length === 0) setFailure(result.message);
  });
  const close = () => {
    reset(EMPTY);
    setFailure(null);
    props.onClose();
  };
  return (
    <Dialog isOpen={props.isOpen} onClose={close} title="Nuevo corporativo">
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
            const error = getFieldState(field.name, formState).error?.message;
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
                  disabled={formState.isSubmitting}
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
              <Button text="Cancelar" onClick={close} />
              <Button
                type="submit"
                intent="primary"
                text="Crear y enviar invitación"
                loading={formState.isSubmitting}
              />
            </>
          }
        />
      </form>
    </Dialog>
  );
}
