// @vitest-environment happy-dom
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_KEY } from '../stores/storage-keys';
import { request, setTokenRenewer } from './http';

/** A JWT-shaped token expiring `inSeconds` from now (only its exp is read on the client). */
function tokenExpiringIn(inSeconds: number, name: string): string {
  const part = (value: object) => Buffer.from(JSON.stringify(value)).toString('base64url');
  return `${part({ alg: 'HS256' })}.${part({ exp: Math.floor(Date.now() / 1000) + inSeconds, jti: name })}.firma`;
}

function recordingServer() {
  const authorizations: (string | null)[] = [];
  const fetch = vi.fn(async (_url: string, init?: RequestInit) => {
    authorizations.push(new Headers(init?.headers).get('Authorization'));
    return Response.json({ ok: true });
  });
  vi.stubGlobal('fetch', fetch);
  return authorizations;
}

describe('request with an expiring access token', () => {
  afterEach(() => {
    setTokenRenewer(null);
    vi.unstubAllGlobals();
    localStorage.clear();
  });

  it('renews it once for parallel calls, and the calls leave with the new token', async () => {
    const expired = tokenExpiringIn(-30, 'vencido');
    const renewed = tokenExpiringIn(300, 'nuevo');
    localStorage.setItem(ACCESS_TOKEN_KEY, expired);
    const renewer = vi.fn(async (old: string) => {
      expect(old).toBe(expired);
      localStorage.setItem(ACCESS_TOKEN_KEY, renewed);
      return renewed;
    });
    setTokenRenewer(renewer);
    const authorizations = recordingServer();

    await Promise.all([request('/api/a/'), request('/api/b/'), request('/api/c/')]);

    expect(renewer).toHaveBeenCalledOnce();
    expect(authorizations).toEqual(Array(3).fill(`Bearer ${renewed}`));
  });

  it('leaves a valid token alone, and never renews for the refresh call itself', async () => {
    const valid = tokenExpiringIn(300, 'vigente');
    localStorage.setItem(ACCESS_TOKEN_KEY, valid);
    const renewer = vi.fn(async () => 'no-debe-usarse');
    setTokenRenewer(renewer);
    const authorizations = recordingServer();
    await request('/api/a/');

    const expired = tokenExpiringIn(-30, 'vencido');
    localStorage.setItem(ACCESS_TOKEN_KEY, expired);
    await request('/api/accounts/token/refresh/', { method: 'POST', body: {}, renewToken: false });

    expect(renewer).not.toHaveBeenCalled();
    expect(authorizations).toEqual([`Bearer ${valid}`, `Bearer ${expired}`]);
  });

  it('sends the call as it is when the renewal fails without ending the session', async () => {
    const expired = tokenExpiringIn(-30, 'vencido');
    localStorage.setItem(ACCESS_TOKEN_KEY, expired);
    setTokenRenewer(async () => {
      throw new Error('sin respuesta');
    });
    const authorizations = recordingServer();
    await request('/api/a/');
    expect(authorizations).toEqual([`Bearer ${expired}`]);
  });
});
