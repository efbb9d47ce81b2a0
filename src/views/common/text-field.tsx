import { FormGroup, InputGroup } from '@blueprintjs/core';
import type { UseFormRegisterReturn } from 'react-hook-form';

export interface TextFieldProps {
  id: string;
  label: string;
  type?: string;
  autoComplete?: string;
  /** The field's message: the form's own validation first, else the server's. */
  error?: string;
  disabled?: boolean;
  registration: UseFormRegisterReturn;
}

/** One labelled Blueprint input bound to react-hook-form, with its Spanish error under it. */
export function TextField({
  id,
  label,
  type = 'text',
  autoComplete,
  error,
  disabled,
  registration,
}: TextFieldProps) {
  return (
    <FormGroup label={label} labelFor={id} intent={error ? 'danger' : 'none'} helperText={error}>
      <InputGroup
        id={id}
        type={type}
        autoComplete={autoComplete}
        intent={error ? 'danger' : 'none'}
        aria-invalid={error ? true : undefined}
        disabled={disabled}
        // Blueprint's InputGroup takes the DOM ref as inputRef.
        inputRef={registration.ref}
        name={registration.name}
        onChange={registration.onChange}
        onBlur={registration.onBlur}
      />
    </FormGroup>
  );
}
