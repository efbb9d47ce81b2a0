// @vitest-environment happy-dom
import { afterEach, describe, expect, it } from 'vitest';
import { ACCESS_TOKEN_KEY, USER_STORE_KEY } from './storage-keys';
import { clearSession, setUser, userStore } from './user.store';

const settled = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  clearSession();
});

describe('user store', () => {
  it('persists a change in the same call', () => {
    setUser({ isAuthenticated: true, hasFactoring: true });
    expect(JSON.parse(localStorage.getItem(USER_STORE_KEY) ?? 'null')).toMatchObject({
      isAuthenticated: true,
      hasFactoring: true,
    });
  });

  it('clearSession leaves local storage empty, even once pending work has run (spec §2, §8)', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, 'token');
    setUser({ isAuthenticated: true, isCorporate: true });
    clearSession();
    expect(localStorage.length).toBe(0);
    await settled();
    expect(localStorage.length).toBe(0);
    expect(userStore.isAuthenticated).toBe(false);
    expect(userStore.isCorporate).toBe(false);
  });
});
