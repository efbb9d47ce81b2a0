import { createFileRoute } from '@tanstack/react-router';
import { ResetRequestPage } from '../../views/auth/reset-request-page';
import { wiredPasswordResetRequestMachine } from '../-account-machines';

export const Route = createFileRoute('/auth/recuperar-contrasena')({
  component: () => <ResetRequestPage machine={wiredPasswordResetRequestMachine} />,
});
