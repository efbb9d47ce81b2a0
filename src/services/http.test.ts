// @vitest-environment happy-dom

import { boolean, type } from 'superstruct';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ACCESS_TOKEN_KEY } from '../stores/storage-keys';
import { ApiError, request, requestFile, setTokenRenewer, UnexpectedResponseError } from './http';

/** What the recording server answers. */
const Ok = type({ ok: boolean() });

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

    await Promise.all([request('/api/a/', Ok), request('/api/b/', Ok), request('/api/c/', Ok)]);

    expect(renewer).toHaveBeenCalledOnce();
    expect(authorizations).toEqual(Array(3).fill(`Bearer ${renewed}`));
  });

  it('leaves a valid token alone, and never renews for the refresh call itself', async () => {
    const valid = tokenExpiringIn(300, 'vigente');
    localStorage.setItem(ACCESS_TOKEN_KEY, valid);
    const renewer = vi.fn(async () => 'no-debe-usarse');
    setTokenRenewer(renewer);
    const authorizations = recordingServer();
    await request('/api/a/', Ok);

    const expired = tokenExpiringIn(-30, 'vencido');
    localStorage.setItem(ACCESS_TOKEN_KEY, expired);
    await request('/api/accounts/token/refresh/', Ok, { method: 'POST', body: {}, renewToken: false });

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
    await request('/api/a/', Ok);
    expect(authorizations).toEqual([`Bearer ${expired}`]);
  });
});

describe('requestFile (a call answered with a file)', () => {
  afterEach(() => {
    setTokenRenewer(null);
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
    localStorage.clear();
  });

  it('renews an expiring token first and hands the body back unread', async () => {
    const expired = tokenExpiringIn(-30, 'vencido');
    const renewed = tokenExpiringIn(300, 'nuevo');
    localStorage.setItem(ACCESS_TOKEN_KEY, expired);
    setTokenRenewer(async () => {
      localStorage.setItem(ACCESS_TOKEN_KEY, renewed);
      return renewed;
    });
    const sent: Headers[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (_url: string, init?: RequestInit) => {
        sent.push(new Headers(init?.headers));
        return new Response(new Uint8Array([80, 75, 3, 4]), {
          headers: { 'content-type': 'application/zip' },
        });
      }),
    );

    const response = await requestFile('/api/file/', 'application/zip', {
      method: 'POST',
      body: { ids: [1] },
    });

    expect(sent[0]?.get('Authorization')).toBe(`Bearer ${renewed}`);
    expect(sent[0]?.get('Accept')).toBe('application/zip');
    expect(response.bodyUsed).toBe(false);
    expect([...new Uint8Array(await response.arrayBuffer())]).toEqual([80, 75, 3, 4]);
  });

  it('ends the session on a 401 made with a session, and reports other failures with their body', async () => {
    localStorage.setItem(ACCESS_TOKEN_KEY, tokenExpiringIn(300, 'vigente'));
    const assign = vi.spyOn(Location.prototype, 'assign').mockImplementation(() => {});
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ detail: 'Token inválido' }, { status: 401 })),
    );
    await expect(requestFile('/api/file/', 'application/zip')).rejects.toEqual(
      new ApiError(401, { detail: 'Token inválido' }),
    );
    expect(assign).toHaveBeenCalledWith('/');
    expect(localStorage.length).toBe(0);

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ detail: 'No está adelantada' }, { status: 409 })),
    );
    const refusal = await requestFile('/api/file/', 'application/zip').catch((error: unknown) => error);
    expect(refusal).toMatchObject({ status: 409, body: { detail: 'No está adelantada' } });

    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    vi.spyOn(console, 'warn').mockImplementation(() => {});
    await expect(requestFile('/api/file/', 'application/zip')).rejects.toMatchObject({ status: 0 });
  });
});

describe('request checks the answer against its struct', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('resolves to a body that matches, extra fields kept', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ ok: true, extra: 1 })),
    );
    await expect(request('/api/a/', Ok)).resolves.toEqual({ ok: true, extra: 1 });
  });

  it('rejects a successful answer that does not match, naming the call and the field', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ ok: 'sí' })),
    );
    const failure = await request('/api/a/', Ok).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(UnexpectedResponseError);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).body).toBeNull();
    expect((failure as Error).message).toMatch(/^Unexpected response from \/api\/a\/: ok: /);
  });
});
