import { screen } from '@testing-library/react';
import { testApp } from '../model/harness/test-server';

export const PATH = '/auth/recuperar-contrasena/';

export const ENDPOINT = '/api/users/request-reset-password/';

export const submitButton = () => screen.getByRole('button', { name: /Enviar enlace/ }) as HTMLButtonElement;

export const emailInput = () => screen.getByLabelText('Correo electrónico') as HTMLInputElement;

// Every path asks for an e-mail; the server's sliding-window throttle must not turn a later path into a 429.
export async function forgetThrottles(): Promise<void> {
  await testApp().database.db.deleteFrom('throttle_hits').execute();
}
