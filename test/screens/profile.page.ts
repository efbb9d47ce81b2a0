import { screen } from '@testing-library/react';
import type { ProfileUpdate } from '../../src/domain/schemas/session';

export const USERNAME = 'proveedor.demo';

export const PATH = '/editar-perfil/';

export const ENDPOINT = '/api/accounts/profile/';

export type TextField = Exclude<keyof ProfileUpdate, 'receive_notification'>;

export const LABELS: Record<TextField, string> = {
  first_name: 'Nombre',
  last_name: 'Apellido',
  mobile_phone: 'Teléfono',
  company: 'Empresa',
};

export const saveButton = () => screen.getByRole('button', { name: /Guardar/ }) as HTMLButtonElement;

export const input = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
