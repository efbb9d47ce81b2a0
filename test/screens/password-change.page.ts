import { screen } from '@testing-library/react';

export const USERNAME = 'proveedor.demo';

export const PATH = '/cambiar-clave/';

export const ENDPOINT = '/api/accounts/update-password/';

export const LABELS = {
  old_password: 'Contraseña actual',
  new_password1: 'Nueva contraseña',
  new_password2: 'Confirmar contraseña',
} as const;

export const submitButton = () =>
  screen.getByRole('button', { name: /Cambiar contraseña/ }) as HTMLButtonElement;

export const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
