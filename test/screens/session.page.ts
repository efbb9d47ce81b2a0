import { screen } from '@testing-library/react';
import { SERVER_WAIT } from '../support/server-wait';

export const dashboardHeading = () =>
  screen.findByRole('heading', { level: 1, name: 'Pronto Pago' }, SERVER_WAIT);
