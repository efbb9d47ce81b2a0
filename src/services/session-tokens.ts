import type { TokenRefreshResponse } from '../domain/schemas/session';
import { INVALID_REFRESH_TOKEN } from '../domain/session';
import { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from '../stores/storage-keys';
import { refreshToken } from './accounts.service';

/** The pair the session keeps; the refresh token and the flags only when the server sent them. */
export type SessionTokenPair = Partial<Omit<TokenRefreshResponse, 'access'>> & { access: string };

/** The Web Locks name under which every tab of the origin refreshes. */
export const SESSION_REFRESH_LOCK = 'flujo-session-refresh';

export function storeTokens(tokens: SessionTokenPair): void {
  localStorage.setItem(ACCESS_TOKEN_KEY, tokens.access);
  if (tokens.refresh) localStorage.setItem(REFRESH_TOKEN_KEY, tokens.refresh);
}

/**
 * Refreshes the session once for all open tabs. The refresh token works once and the server revokes the
 * whole family when it sees it again, so two tabs refreshing at the same moment would sign each other
 * out: they take turns under a lock, and a tab whose `usedAccessToken` is no longer the stored one
 * takes the pair another tab already rotated instead of calling the server.
 */
// async so that storage refusing access surfaces as a rejection, like every other refresh failure.
export async function refreshSessionTokens(usedAccessToken: string | null): Promise<SessionTokenPair> {
  // Within one tab the timer and a call's renewal can ask at the same moment: they share one refresh,
  // which also covers browsers without Web Locks. Only while the same session is stored: after a logout
  // and a new login, a refresh of the old session that is still hanging must not hold the new one.
  const storedRefresh = localStorage.getItem(REFRESH_TOKEN_KEY);
  if (inFlight?.storedRefresh === storedRefresh) return inFlight.tokens;
  const current = {
    storedRefresh,
    tokens: refreshUnderLock(usedAccessToken).finally(() => {
      if (inFlight === current) inFlight = null;
    }),
  };
  inFlight = current;
  return current.tokens;
}

let inFlight: { storedRefresh: string | null; tokens: Promise<SessionTokenPair> } | null = null;

async function refreshUnderLock(usedAccessToken: string | null): Promise<SessionTokenPair> {
  const refreshOnce = async (): Promise<SessionTokenPair> => {
    const storedAccess = localStorage.getItem(ACCESS_TOKEN_KEY);
    const sentRefresh = localStorage.getItem(REFRESH_TOKEN_KEY);
    if (storedAccess && storedAccess !== usedAccessToken) {
      return { access: storedAccess, ...(sentRefresh && { refresh: sentRefresh }) };
    }
    const tokens = await refreshToken();
    // A logout (or a 401 elsewhere) cleared storage while the call was out: the session is over, and
    // writing the new pair back would revive it.
    if (localStorage.getItem(REFRESH_TOKEN_KEY) !== sentRefresh) throw new Error(INVALID_REFRESH_TOKEN);
    // Stored before the lock is released, so the next tab in line already sees the rotated pair.
    storeTokens(tokens);
    return tokens;
  };
  // NOTE: Web Locks are missing in older browsers and in happy-dom (navigator.locks is null there);
  // without them tabs are not coordinated with each other, only the calls within one tab.
  const locks = typeof navigator === 'undefined' ? null : (navigator.locks ?? null);
  return locks ? await locks.request(SESSION_REFRESH_LOCK, refreshOnce) : refreshOnce();
}
