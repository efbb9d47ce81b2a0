import { validate } from 'superstruct';
import { proxy, subscribe } from 'valtio';
import { SatStatus } from '../domain/sat-status';
import { type Role, SessionUser } from '../domain/schemas/session-user';
import { USER_STORE_KEY } from './storage-keys';

export type { Role };

/** Spec §3 "Session user", persisted in localStorage. */
export type UserState = SessionUser;

export const SIGNED_OUT_USER: UserState = {
  role: 'provider',
  satCredentials: SatStatus.AUTHORIZED,
  corporate_can_pay_costs: false,
  hasFactoring: false,
  isCorporate: false,
  isAuthenticated: false,
  operatorRoles: [],
};

/** The stored record as a session user: each field that passes `SessionUser` is kept, the rest are defaults. */
export function parseStoredUser(text: string | null): UserState {
  let stored: unknown = null;
  try {
    stored = JSON.parse(text ?? 'null');
  } catch {
    // Not JSON at all: nothing to keep.
  }
  if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return { ...SIGNED_OUT_USER };
  // Field by field: the access token, not this record, decides the session, so one bad value loses only itself.
  const [error] = validate(stored, SessionUser);
  const invalid = new Set(error?.failures().map((failure) => failure.path[0]));
  const user: Record<string, unknown> = { ...SIGNED_OUT_USER };
  // Every field of the struct: the operator's fields are optional and have no default (absent for others).
  for (const field of Object.keys(SessionUser.schema)) {
    if (!invalid.has(field) && field in stored) user[field] = (stored as Record<string, unknown>)[field];
  }
  return user as UserState;
}

function load(): UserState {
  try {
    return parseStoredUser(localStorage.getItem(USER_STORE_KEY));
  } catch {
    // NOTE: storage may be missing outside a browser, or blocked by the browser's privacy settings.
    return parseStoredUser(null);
  }
}

/** The session and UI facts the whole app reads; the session machine is the only writer. */
export const userStore = proxy<UserState>(load());

// Written in the same call as each change (valtio's notifyInSync). By default valtio batches the write
// into a later microtask, after a `localStorage.clear()` that follows it, and the user would reappear.
subscribe(
  userStore,
  () => {
    try {
      localStorage.setItem(USER_STORE_KEY, JSON.stringify(userStore));
    } catch {
      // Storage blocked or full: the session machine's action must not throw (it would stop the actor);
      // the user still applies to this page, it just is not remembered.
    }
  },
  true,
);

/** A signed-in operator of the back office (/operacion/). */
export function isOperatorSession(
  user: Pick<UserState, 'isAuthenticated' | 'operatorRoles'> = userStore,
): boolean {
  return user.isAuthenticated && user.operatorRoles.length > 0;
}

export function setUser(next: Partial<UserState>): void {
  Object.assign(userStore, next);
}

export function resetUser(): void {
  // The optional fields (an operator's) are not in the signed-out user: they go.
  for (const field of Object.keys(userStore) as (keyof UserState)[]) {
    if (!(field in SIGNED_OUT_USER)) delete userStore[field];
  }
  Object.assign(userStore, SIGNED_OUT_USER);
}

/** A signed-out page: the signed-out user in memory and nothing in local storage (spec §2, §8). */
export function clearSession(): void {
  resetUser();
  try {
    localStorage.clear();
  } catch {
    // Storage blocked: there is nothing stored to clear.
  }
}
