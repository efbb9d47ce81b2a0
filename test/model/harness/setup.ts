import { cleanup, configure } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, vi } from 'vitest';
import { resetUser } from '../../../src/stores/user.store';
import { SERVER_WAIT_MS } from '../../support/server-wait';
import { abandonHeldRequests } from './msw-gate';
import { mswServer, startTestApp, stopTestApp } from './test-server';

// Shared by the model and screens projects. A wait written without its own timeout still gets the server's:
// a loaded machine makes answers slow, not wrong (test/support/server-wait.ts).
configure({ asyncUtilTimeout: SERVER_WAIT_MS });

// A test fails on any console.error (a React warning is a bug we would otherwise ship).
const originalError = console.error;

beforeAll(async () => {
  await startTestApp();
  mswServer.listen({ onUnhandledRequest: 'error' });
  vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
    originalError(...args);
    throw new Error(`console.error during test: ${args.map(String).join(' ')}`);
  });
});

afterEach(async () => {
  cleanup();
  abandonHeldRequests();
  // Lets the abandoned requests' promises settle before the next path starts.
  await new Promise((settled) => setTimeout(settled, 0));
  mswServer.resetHandlers();
  // The user store lives in memory as well as in storage: each path starts signed out.
  resetUser();
  localStorage.clear();
});

afterAll(async () => {
  mswServer.close();
  await stopTestApp();
  vi.restoreAllMocks();
});
