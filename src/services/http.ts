import { type Struct, validate } from 'superstruct';
import { accessTokenState } from '../domain/session';
import { ACCESS_TOKEN_KEY } from '../stores/storage-keys';
import { signedOutDestination } from './navigation';

/** A failed call: `status` 0 means no response arrived (network loss, server down). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: unknown,
  ) {
    super(status === 0 ? 'Sin respuesta del servidor' : `HTTP ${status}`);
  }
}

/**
 * A successful answer whose body does not match its struct of src/domain/schemas: a broken contract between
 * the server and this client. Callers see it as an ApiError without a usable body (their generic message);
 * `message` names the call and the first field that does not match, for the console and for tests.
 */
export class UnexpectedResponseError extends ApiError {
  constructor(status: number, url: string, problem: string) {
    super(status, null);
    this.message = `Unexpected response from ${url}: ${problem}`;
  }
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
  body?: unknown;
  /** List endpoints answer arrays; everywhere else an array is a contract violation (spec §7). */
  allowArray?: boolean;
  idempotencyKey?: string;
  /** false for the token refresh itself: it must not wait for a renewal of its own. */
  renewToken?: boolean;
}

/** Renews the session given the access token that is about to expire; resolves to the new access token. */
export type TokenRenewer = (expiringAccessToken: string) => Promise<string>;

// A call whose token expires within this margin renews it first: it would reach the server dead.
const RENEW_MARGIN_MS = 10_000;
let tokenRenewer: TokenRenewer | null = null;
let renewal: Promise<string> | null = null;

/**
 * The app's wiring sets how a session is renewed. The session machine refreshes on a timer, but browsers
 * delay timers in background tabs and while asleep; without this, the first call after waking would leave
 * with an expired token, get a 401 and end a session whose refresh token was still good.
 */
export function setTokenRenewer(renewer: TokenRenewer | null): void {
  tokenRenewer = renewer;
}

async function accessTokenForCall(renew: boolean): Promise<string | null> {
  const token = localStorage.getItem(ACCESS_TOKEN_KEY);
  if (!token || !renew || !tokenRenewer) return token;
  if (accessTokenState(token, Date.now() + RENEW_MARGIN_MS) === 'valid') return token;
  // Parallel calls share one renewal: a second use of the single-use refresh token would end the session.
  renewal ??= tokenRenewer(token).finally(() => {
    renewal = null;
  });
  try {
    return await renewal;
  } catch {
    // Renewal failed without ending the session (no answer, 500): the call goes out as it is and
    // its own answer decides (spec §8).
    return localStorage.getItem(ACCESS_TOKEN_KEY);
  }
}

/** Called on any 401: all local storage is cleared and the app goes to '/' (spec §8), an operator to their door. */
export function onUnauthorized(): void {
  localStorage.clear();
  window.location.assign(signedOutDestination());
}

/** Sends a call with the session's token (renewed first when it is about to expire); no response → status 0. */
async function send(
  url: string,
  options: RequestOptions,
  accept: string,
): Promise<{ response: Response; token: string | null }> {
  const headers: Record<string, string> = { Accept: accept };
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const token = await accessTokenForCall(options.renewToken ?? true);
  if (token) headers.Authorization = `Bearer ${token}`;
  if (options.idempotencyKey) headers['Idempotency-Key'] = options.idempotencyKey;
  try {
    const response = await fetch(url, {
      method: options.method ?? 'GET',
      headers,
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    return { response, token };
  } catch (error) {
    console.warn('request without response', url, error);
    throw new ApiError(0, null);
  }
}

/**
 * A 401 on a call made with a session means the session is over (spec §8). Without one (login, sign-up,
 * reset) it is an answer for the form, such as wrong credentials.
 */
function endSessionOn401(status: number, token: string | null, body: unknown): void {
  if (status === 401 && token) {
    onUnauthorized();
    throw new ApiError(401, body);
  }
}

/**
 * A JSON call whose successful answer is checked against its response struct (src/domain/schemas), the one the
 * server documents the route with, instead of being cast: a mismatch is an UnexpectedResponseError.
 * Example: request(`${ACCOUNTS_API_URL}/profile/`, Profile).
 */
export async function request<T, S>(
  url: string,
  struct: Struct<T, S>,
  options: RequestOptions = {},
): Promise<T> {
  const { response, token } = await send(url, options, 'application/json');
  const body: unknown = await response.json().catch(() => null);
  return checkedAnswer(url, struct, response.status, token, body, options.allowArray ?? false);
}

/** The rules every JSON answer meets: 401 with a session ends it, an error is an ApiError, a body its struct. */
function checkedAnswer<T, S>(
  url: string,
  struct: Struct<T, S>,
  status: number,
  token: string | null,
  body: unknown,
  allowArray: boolean,
): T {
  endSessionOn401(status, token, body);
  if (status < 200 || status >= 300) throw new ApiError(status, body);
  if (Array.isArray(body) && !allowArray) throw new ApiError(status, { detail: 'Data must be an object' });
  // Response structs are `type()`s: a newer server may add fields. No coercion: the body is what was sent.
  const [error, value] = validate(body, struct);
  if (error) {
    const where = error.path.length > 0 ? error.path.join('.') : '(body)';
    throw new UnexpectedResponseError(status, url, `${where}: ${error.message}`);
  }
  return value;
}

/**
 * A call answered with a file rather than JSON: the same token renewal, 401 rule and ApiError as
 * `request()`, but a successful Response is handed back unread so the caller can stream its body.
 */
export async function requestFile(
  url: string,
  accept: string,
  options: Pick<RequestOptions, 'method' | 'body' | 'idempotencyKey'> = {},
): Promise<Response> {
  const { response, token } = await send(url, options, accept);
  if (response.ok) return response;
  const body: unknown = await response.json().catch(() => null);
  endSessionOn401(response.status, token, body);
  throw new ApiError(response.status, body);
}

/** How much of a request body has left the browser. */
export type UploadProgress = (fraction: number) => void;

/**
 * A multipart upload that reports its progress: XMLHttpRequest, because fetch has no upload progress event.
 * The same token renewal, 401 rule, ApiError (status 0 without a response) and response check as `request()`.
 */
export async function upload<T, S>(
  url: string,
  struct: Struct<T, S>,
  form: FormData,
  onProgress: UploadProgress,
  options: Pick<RequestOptions, 'allowArray' | 'idempotencyKey'> = {},
): Promise<T> {
  const token = await accessTokenForCall(true);
  const { status, body } = await new Promise<{ status: number; body: unknown }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', url);
    xhr.setRequestHeader('Accept', 'application/json');
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    if (options.idempotencyKey) xhr.setRequestHeader('Idempotency-Key', options.idempotencyKey);
    xhr.upload.addEventListener('progress', (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    });
    xhr.addEventListener('load', () => {
      let parsed: unknown = null;
      try {
        parsed = xhr.responseText ? JSON.parse(xhr.responseText) : null;
      } catch {
        // Not JSON (a proxy's page): no usable body.
      }
      resolve({ status: xhr.status, body: parsed });
    });
    const lost = () => {
      console.warn('request without response', url);
      reject(new ApiError(0, null));
    };
    xhr.addEventListener('error', lost);
    xhr.addEventListener('abort', lost);
    xhr.addEventListener('timeout', lost);
    xhr.send(form);
  });
  return checkedAnswer(url, struct, status, token, body, options.allowArray ?? false);
}
