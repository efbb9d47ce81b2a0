import { Button, FormGroup, InputGroup } from '@blueprintjs/core';
import { EyeOffIcon, EyeOpenIcon } from '@blueprintjs/icons';
import { useState } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';

/**
 * A password input with a show/hide toggle (helpful on a phone, where typos are easy and there is no
 * confirmation field on the reset screen). `describedBy` points at hints such as the rule list.
 */
export function PasswordField({
  id,
  label,
  autoComplete,
  error,
  disabled,
  describedBy,
  field,
}: {
  id: string;
  label: string;
  autoComplete: 'current-password' | 'new-password';
  error: string | undefined;
  disabled: boolean;
  describedBy?: string;
  field: UseFormRegisterReturn;
}) {
  const [visible, setVisible] = useState(false);
  // The message is part of the input's description, so a screen reader reads the reason with "invalid".
  const messageId = `${id}-mensaje`;
  const description = [error ? messageId : undefined, describedBy].filter(Boolean).join(' ') || undefined;
  return (
    <FormGroup
      label={label}
      labelFor={id}
      intent={error ? 'danger' : 'none'}
      helperText={error ? <span id={messageId}>{error}</span> : undefined}
    >
      <InputGroup
        id={id}
        type={visible ? 'text' : 'password'}
        autoComplete={autoComplete}
        intent={error ? 'danger' : 'none'}
        aria-invalid={error ? true : undefined}
        aria-describedby={description}
        disabled={disabled}
        inputRef={field.ref}
        name={field.name}
        onChange={field.onChange}
        onBlur={field.onBlur}
        rightElement={
          <Button
            variant="minimal"
            icon={visible ? <EyeOffIcon /> : <EyeOpenIcon />}
            // NOTE: the name leaves out the field's label, so a label query (Playwright's getByLabel matches
            // substrings) finds only the input; the button sits right after its field and controls it.
            aria-label="Mostrar contraseña"
            aria-pressed={visible}
            aria-controls={id}
            disabled={disabled}
            onClick={() => setVisible((shown) => !shown)}
          />
        }
      />
    </FormGroup>
  );
}
