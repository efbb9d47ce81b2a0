import type { TokenRefreshResponse } from '../domain/schemas/session';
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
export async function refreshSessionTokens(usedAccessToken: string | null): Promise<SessionTokenPair> {
  const refreshOnce = async (): Promise<SessionTokenPair> => {
    const storedAccess = localStorage.getItem(ACCESS_TOKEN_KEY);
    if (storedAccess && storedAccess !== usedAccessToken) {
      const storedRefresh = localStorage.getItem(REFRESH_TOKEN_KEY);
      return { access: storedAccess, ...(storedRefresh && { refresh: storedRefresh }) };
    }
    const tokens = await refreshToken();
    // Stored before the lock is released, so the next tab in line already sees the rotated pair.
    storeTokens(tokens);
    return tokens;
  };
  // NOTE: Web Locks are missing in older browsers and in happy-dom (navigator.locks is null there);
  // without them the tabs are not coordinated, but the stored-token check above still applies.
  const locks = typeof navigator === 'undefined' ? null : (navigator.locks ?? null);
  return locks ? await locks.request(SESSION_REFRESH_LOCK, refreshOnce) : refreshOnce();
}
