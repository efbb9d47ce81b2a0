import { screen, waitFor } from '@testing-library/react';
import { expect } from 'vitest';
import type { SIGN_UP_VALUES } from '../fixtures/sign-up';
import { SERVER_WAIT } from '../support/server-wait';

export const LABELS: Record<Exclude<keyof typeof SIGN_UP_VALUES, 'receive_notification'>, string> = {
  name: 'Nombre',
  last_name: 'Apellido',
  username: 'Usuario',
  mobile_phone: 'Teléfono celular',
  company: 'Empresa',
  email: 'Correo electrónico',
  password1: 'Contraseña',
  password2: 'Confirmar contraseña',
};

// The ALTCHA widget stays on the page (and, under happy-dom's non-secure context, shows its own alert);
// the machine's feedback is the toast.
export const toastAlerts = () =>
  screen.queryAllByRole('alert').filter((alert) => alert.closest('.bp6-toast'));

export const findToast = async () => {
  await waitFor(() => expect(toastAlerts().length).toBeGreaterThan(0), SERVER_WAIT);
  return toastAlerts()[0]!;
};

export const submitButton = () => screen.getByRole('button', { name: /Siguiente/ }) as HTMLButtonElement;
