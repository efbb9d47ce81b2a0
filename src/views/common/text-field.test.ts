// @vitest-environment happy-dom
import { cleanup, render, screen } from '@testing-library/react';
import { createElement } from 'react';
import type { UseFormRegisterReturn } from 'react-hook-form';
import { afterEach, describe, expect, it } from 'vitest';
import { TextField } from './text-field';

afterEach(cleanup);

const registration: UseFormRegisterReturn = {
  name: 'email',
  onChange: async () => {},
  onBlur: async () => {},
  ref: () => {},
};

function field(props: { error?: string; required?: boolean }) {
  render(createElement(TextField, { id: 'demo-email', label: 'Correo electrónico', registration, ...props }));
  return screen.getByLabelText('Correo electrónico');
}

describe('TextField', () => {
  it('names its error as the input’s description, so a screen reader reads the reason', () => {
    const input = field({ error: 'Debe ser un correo valido' });
    expect(input.getAttribute('aria-invalid')).toBe('true');
    const described = input.getAttribute('aria-describedby');
    expect(described).toBeTruthy();
    expect(document.getElementById(described!)?.textContent).toBe('Debe ser un correo valido');
  });

  it('describes nothing while the value is fine', () => {
    const input = field({});
    expect(input.hasAttribute('aria-describedby')).toBe(false);
    expect(input.hasAttribute('aria-invalid')).toBe(false);
  });

  it('announces a required field without turning on the browser’s own validation', () => {
    const input = field({ required: true });
    expect(input.getAttribute('aria-required')).toBe('true');
    expect(input.hasAttribute('required')).toBe(false);
    cleanup();
    expect(field({}).hasAttribute('aria-required')).toBe(false);
  });
});
