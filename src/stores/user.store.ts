import { proxy, subscribe } from 'valtio';
import { SatStatus, type SatStatusCode } from '../domain/sat-status';
import { USER_STORE_KEY } from './storage-keys';

export type Role = 'provider' | 'corporate';

/** Spec §3 "Session user", persisted in localStorage. */
export interface UserState {
  role: Role;
  satCredentials: SatStatusCode;
  corporate_can_pay_costs: boolean;
  hasFactoring: boolean;
  isCorporate: boolean;
  isAuthenticated: boolean;
}

export const SIGNED_OUT_USER: UserState = {
  role: 'provider',
  satCredentials: SatStatus.AUTHORIZED,
  corporate_can_pay_costs: false,
  hasFactoring: false,
  isCorporate: false,
  isAuthenticated: false,
};

function load(): UserState {
  try {
    const stored = JSON.parse(localStorage.getItem(USER_STORE_KEY) ?? 'null') as Partial<UserState> | null;
    return { ...SIGNED_OUT_USER, ...(stored ?? {}) };
  } catch {
    return { ...SIGNED_OUT_USER };
  }
}

/** The session and UI facts the whole app reads; the session machine is the only writer. */
export const userStore = proxy<UserState>(load());

// Written in the same call as each change (valtio's notifyInSync). By default valtio batches the write
// into a later microtask, after a `localStorage.clear()` that follows it, and the user would reappear.
subscribe(
  userStore,
  () => {
    localStorage.setItem(USER_STORE_KEY, JSON.stringify(userStore));
  },
  true,
);

export function setUser(next: Partial<UserState>): void {
  Object.assign(userStore, next);
}

export function resetUser(): void {
  Object.assign(userStore, SIGNED_OUT_USER);
}

/** A signed-out page: the signed-out user in memory and nothing in local storage (spec §2, §8). */
export function clearSession(): void {
  resetUser();
  localStorage.clear();
}
