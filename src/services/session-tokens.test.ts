// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SatStatus } from '../domain/sat-status';
import { INVALID_REFRESH_TOKEN } from '../domain/session';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../stores/storage-keys';
import { refreshSessionTokens, SESSION_REFRESH_LOCK } from './session-tokens';

const FLAGS = {
  // A real status: the client checks the answer against TokenRefreshResponse.
  sat_credentials_status: SatStatus.AUTHORIZED,
  corporate_can_pay_costs: false,
  has_factoring: false,
  is_corporate: false,
};

/** A server that rotates the pair on every call: access-1/refresh-1, then access-2/refresh-2... */
function rotatingServer() {
  let calls = 0;
  const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
    calls++;
    expect(JSON.parse(String(init?.body))).toEqual({ refresh: `refresh-${calls - 1}` });
    return Response.json({ access: `access-${calls}`, refresh: `refresh-${calls}`, ...FLAGS });
  });
  vi.stubGlobal('fetch', fetch);
  return fetch;
}

/** What the browser's LockManager guarantees: callbacks under one name run one after another. */
function serialLocks() {
  let tail: Promise<unknown> = Promise.resolve();
  const names: string[] = [];
  const request = (name: string, callback: (lock: null) => unknown) => {
    names.push(name);
    const run = tail.then(() => callback(null));
    tail = run.catch(() => {});
    return run;
  };
  Object.defineProperty(navigator, 'locks', { value: { request }, configurable: true });
  return names;
}

describe('refreshSessionTokens', () => {
  beforeEach(() => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'access-0');
    localStorage.setItem(REFRESH_TOKEN_KEY, 'refresh-0');
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    Reflect.deleteProperty(navigator, 'locks');
    localStorage.clear();
  });

  it('rotates the stored pair and stores the new one (no Web Locks: runs directly)', async () => {
    const fetch = rotatingServer();
    const tokens = await refreshSessionTokens('access-0');
    expect(fetch).toHaveBeenCalledOnce();
    expect(fetch.mock.calls[0]?.[0]).toContain('/token/refresh/');
    expect(tokens).toMatchObject({ access: 'access-1', refresh: 'refresh-1' });
    expect(localStorage.getItem(ACCESS_TOKEN_KEY)).toBe('access-1');
    expect(localStorage.getItem(REFRESH_TOKEN_KEY)).toBe('refresh-1');
  });

  it('takes the pair another tab already rotated instead of reusing the spent refresh token', async () => {
    const fetch = rotatingServer();
    localStorage.setItem(ACCESS_TOKEN_KEY, 'access-1');
    localStorage.setItem(REFRESH_TOKEN_KEY, 'refresh-1');
    expect(await refreshSessionTokens('access-0')).toEqual({ access: 'access-1', refresh: 'refresh-1' });
    expect(fetch).not.toHaveBeenCalled();
  });

  it('lets two tabs refreshing at once spend the refresh token only once', async () => {
    const fetch = rotatingServer();
    const locks = serialLocks();
    // Two tabs: two instances of the module sharing the origin's storage and lock manager.
    const tabA = await import('./session-tokens');
    vi.resetModules();
    const tabB = await import('./session-tokens');
    expect(tabB).not.toBe(tabA);
    const [first, second] = await Promise.all([
      tabA.refreshSessionTokens('access-0'),
      tabB.refreshSessionTokens('access-0'),
    ]);
    expect(locks).toEqual([SESSION_REFRESH_LOCK, SESSION_REFRESH_LOCK]);
    expect(fetch).toHaveBeenCalledOnce();
    expect(first.access).toBe('access-1');
    expect(second).toEqual({ access: 'access-1', refresh: 'refresh-1' });
  });

  it('shares one refresh between the timer and a call in the same tab, even without Web Locks', async () => {
    const fetch = rotatingServer();
    const [timer, call] = await Promise.all([
      refreshSessionTokens('access-0'),
      refreshSessionTokens('access-0'),
    ]);
    expect(fetch).toHaveBeenCalledOnce();
    expect(call).toEqual(timer);
  });

  it('does not write the new pair back when a logout cleared storage while the refresh was out', async () => {
    let answer!: () => void;
    const answered = new Promise<void>((resolve) => {
      answer = resolve;
    });
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        await answered;
        return Response.json({ access: 'access-1', refresh: 'refresh-1', ...FLAGS });
      }),
    );
    const pending = refreshSessionTokens('access-0');
    await Promise.resolve();
    localStorage.clear();
    answer();
    await expect(pending).rejects.toThrow(INVALID_REFRESH_TOKEN);
    expect(localStorage.length).toBe(0);
  });

  it('does not make a new session wait on a refresh of the old one that never came back', async () => {
    const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
      const { refresh } = JSON.parse(String(init?.body)) as { refresh: string };
      // The old session's call hangs; the new session's is answered.
      if (refresh === 'refresh-0') return new Promise<Response>(() => {});
      return Response.json({ access: 'access-9', refresh: 'refresh-9', ...FLAGS });
    });
    vi.stubGlobal('fetch', fetch);
    void refreshSessionTokens('access-0');
    await Promise.resolve();
    // Logout and a new login replace the stored pair.
    localStorage.setItem(ACCESS_TOKEN_KEY, 'access-8');
    localStorage.setItem(REFRESH_TOKEN_KEY, 'refresh-8');
    expect(await refreshSessionTokens('access-8')).toMatchObject({
      access: 'access-9',
      refresh: 'refresh-9',
    });
    expect(fetch).toHaveBeenCalledTimes(2);
  });
});
