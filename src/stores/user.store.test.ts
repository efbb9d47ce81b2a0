// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SatStatus } from '../domain/sat-status';
import { ACCESS_TOKEN_KEY, USER_STORE_KEY } from './storage-keys';
import {
  clearSession,
  parseStoredUser,
  SIGNED_OUT_USER,
  setUser,
  type UserState,
  userStore,
} from './user.store';

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

  it('keeps working in memory when the browser refuses to write or clear storage', () => {
    const blocked = () => {
      throw new DOMException('Storage is blocked', 'SecurityError');
    };
    const setItem = vi.spyOn(localStorage, 'setItem').mockImplementation(blocked);
    const clear = vi.spyOn(localStorage, 'clear').mockImplementation(blocked);
    try {
      expect(() => setUser({ isAuthenticated: true, hasFactoring: true })).not.toThrow();
      expect(userStore.hasFactoring).toBe(true);
      expect(() => clearSession()).not.toThrow();
      expect(userStore.isAuthenticated).toBe(false);
      expect(userStore.hasFactoring).toBe(false);
      expect(setItem).toHaveBeenCalled();
      expect(clear).toHaveBeenCalled();
    } finally {
      setItem.mockRestore();
      clear.mockRestore();
    }
  });
});

describe('the stored session user (spec §3)', () => {
  const CORPORATE: UserState = {
    role: 'corporate',
    satCredentials: SatStatus.SENT,
    corporate_can_pay_costs: true,
    hasFactoring: true,
    isCorporate: true,
    isAuthenticated: true,
    operatorRoles: [],
  };
  const parse = (stored: unknown) => parseStoredUser(JSON.stringify(stored));

  it('keeps a valid record as it is', () => {
    expect(parse(CORPORATE)).toEqual(CORPORATE);
  });

  it('fills the fields a partial record lacks with the defaults', () => {
    expect(parse({ role: 'corporate', isAuthenticated: true })).toEqual({
      ...SIGNED_OUT_USER,
      role: 'corporate',
      isAuthenticated: true,
    });
  });

  it.each<[string, Partial<Record<keyof UserState, unknown>>]>([
    ['a role outside provider|corporate', { role: 'operator' }],
    ['a SAT status outside the enumeration', { satCredentials: 99 }],
    ['a SAT status as text', { satCredentials: '30' }],
    ['a flag as text', { isAuthenticated: 'true' }],
    ['a flag as a number', { hasFactoring: 1 }],
    ['a null flag', { corporate_can_pay_costs: null }],
  ])('replaces %s with its default and keeps the other fields', (_, bad) => {
    const [field] = Object.keys(bad) as (keyof UserState)[];
    expect(parse({ ...CORPORATE, ...bad })).toEqual({ ...CORPORATE, [field!]: SIGNED_OUT_USER[field!] });
  });

  it('drops fields that are not part of the session user', () => {
    const user = parse({ ...CORPORATE, access: 'a.b.c', isAdmin: true });
    expect(Object.keys(user).sort()).toEqual(Object.keys(SIGNED_OUT_USER).sort());
  });

  it.each([
    ['nothing stored', null],
    ['text that is not JSON', '{"role":'],
    ['JSON null', 'null'],
    ['an array', '[true]'],
    ['a number', '30'],
    ['a string', '"corporate"'],
  ])('falls back to the signed-out user for %s', (_, text) => {
    expect(parseStoredUser(text)).toEqual(SIGNED_OUT_USER);
  });

  it('the store loads the stored record through the same check', async () => {
    localStorage.setItem(USER_STORE_KEY, JSON.stringify({ ...CORPORATE, satCredentials: 'AUTHORIZED' }));
    vi.resetModules();
    const { userStore: loaded } = await import('./user.store');
    expect({ ...loaded }).toEqual({ ...CORPORATE, satCredentials: SIGNED_OUT_USER.satCredentials });
  });
});
