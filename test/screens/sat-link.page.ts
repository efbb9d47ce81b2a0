import { screen } from '@testing-library/react';

export const PATH = '/dashboard/sat-credentials/';

export const PRONTO_PAGO = '/dashboard/pronto-pago/';

export const ENDPOINT = '/api/accounts/ciec/';

export const submitButton = () =>
  screen.getByRole('button', { name: /Enviar credenciales/ }) as HTMLButtonElement;

export const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
