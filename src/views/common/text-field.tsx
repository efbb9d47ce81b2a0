import { FormGroup, InputGroup } from '@blueprintjs/core';
import type { UseFormRegisterReturn } from 'react-hook-form';

export interface TextFieldProps {
  id: string;
  label: string;
  type?: string;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'decimal' | 'text' | 'email' | 'tel';
  /** A hint under the field while it has no error ('Formato: 2026-07-31'). */
  helper?: string;
  /** The field's message: the form's own validation first, else the server's. */
  error?: string;
  disabled?: boolean;
  /** Focus on arrival (a page whose first job is this field, like the operators' login). */
  autoFocus?: boolean;
  /**
   * Announced as required (aria-required). The forms validate with their own schema (`noValidate`), so
   * this does not turn on the browser's validation.
   */
  required?: boolean;
  registration: UseFormRegisterReturn;
}

/** The id of a field's message, which its input names in aria-describedby. */
function fieldMessageId(id: string): string {
  return `${id}-mensaje`;
}

/**
 * One labelled Blueprint input bound to react-hook-form, with its Spanish error under it. The error is
 * the input's accessible description, so a screen reader reads the reason along with "invalid".
 */
export function TextField({
  id,
  label,
  type = 'text',
  autoComplete,
  placeholder,
  inputMode,
  helper,
  error,
  disabled,
  autoFocus,
  required,
  registration,
}: TextFieldProps) {
  const messageId = fieldMessageId(id);
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? 'danger' : 'none'}
      // NOTE: Blueprint's FormGroup gives its helper text no id, so the message carries its own.
      helperText={error ? <span id={messageId}>{error}</span> : helper}
    >
      <InputGroup
        id={id}
        type={type}
        autoComplete={autoComplete}
        placeholder={placeholder}
        inputMode={inputMode}
        intent={error ? 'danger' : 'none'}
        aria-invalid={error ? true : undefined}
        aria-describedby={error ? messageId : undefined}
        aria-required={required ? true : undefined}
        disabled={disabled}
        autoFocus={autoFocus}
        // Blueprint's InputGroup takes the DOM ref as inputRef.
        inputRef={registration.ref}
        name={registration.name}
        onChange={registration.onChange}
        onBlur={registration.onBlur}
      />
    </FormGroup>
  );
}
