import { createMemoryHistory } from '@tanstack/react-router';
import { render, screen } from '@testing-library/react';
import { VirtuosoMockContext } from 'react-virtuoso';
import { App, createAppRouter } from '../../../src/routes/-app';
import type { MachineOverrides } from '../../../src/routes/-machines';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../../../src/stores/storage-keys';
import { clearSession, setUser } from '../../../src/stores/user.store';
import { MESSAGE_DIALOG_NAMES } from '../../../src/views/invoices/message-dialog';
import { SERVER_WAIT } from '../../support/server-wait';
import { callServer } from './test-server';

/** Virtuoso's layout in a DOM without one: the tables' 600 px box and 60 px rows (spec §9). */
export const TABLE_LAYOUT = { viewportHeight: 600, itemHeight: 60 };

/**
 * Renders the real app (router, session, providers) at `path`, as a browser would after a reload. happy-dom
 * measures nothing, so react-virtuoso gets its layout from a mock context; without it no table row is drawn.
 */
export function renderApp(
  path: string,
  options: { session?: Parameters<typeof App>[0]['session']; machines?: MachineOverrides } = {},
) {
  const router = createAppRouter(createMemoryHistory({ initialEntries: [path] }), options.machines);
  const view = render(
    <VirtuosoMockContext.Provider value={TABLE_LAYOUT}>
      <App router={router} session={options.session} />
    </VirtuosoMockContext.Provider>,
  );
  return { router, ...view };
}

export const DEMO_PASSWORD = 'Flujo-Demo-2026!';

/**
 * Signs in through the real login endpoint and stores what the session machine would, so a test can
 * start on an authenticated page. Returns the tokens.
 */
export async function signInAs(username: string, password = DEMO_PASSWORD) {
  const response = await callServer('POST', '/api/accounts/login/', { body: { username, password } });
  if (response.status !== 200) throw new Error(`login ${username} failed: ${JSON.stringify(response.body)}`);
  const tokens = response.body as {
    access: string;
    refresh: string;
    sat_credentials_status: 10 | 20 | 30 | 40;
    corporate_can_pay_costs: boolean;
    has_factoring: boolean;
    is_corporate: boolean;
  };
  localStorage.setItem(ACCESS_TOKEN_KEY, tokens.access);
  localStorage.setItem(REFRESH_TOKEN_KEY, tokens.refresh);
  setUser({
    isAuthenticated: true,
    role: 'provider',
    satCredentials: tokens.sat_credentials_status,
    corporate_can_pay_costs: tokens.corporate_can_pay_costs,
    hasFactoring: tokens.has_factoring,
    isCorporate: tokens.is_corporate,
  });
  return tokens;
}

/** Back to a signed-out browser (the harness also clears localStorage after each test). */
export function signOut(): void {
  clearSession();
}

/** The message dialog (spec §8 alert dialog), not a side panel that is also a dialog. */
export function findMessageDialog(): Promise<HTMLElement> {
  return screen.findByRole('dialog', { name: (name) => MESSAGE_DIALOG_NAMES.includes(name) }, SERVER_WAIT);
}
