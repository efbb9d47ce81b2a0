import {
  parseStatusResponse,
  SAT_STATUS_SOAP_ACTION,
  type SatStatusAnswer,
  statusRequestEnvelope,
} from './sat-status-soap';

/** Why SAT's status service gave no answer. */
export type SatStatusFailure = 'timeout' | 'http' | 'network' | 'protocol';

export const SAT_STATUS_UNAVAILABLE_MESSAGE = 'El SAT no respondió.';

/**
 * SAT's status service could not be asked or did not answer: never read as a pass. The message is for users;
 * `cause` says which kind of failure, `detail` (English) and `underlying` are for logs.
 */
export class SatStatusUnavailableError extends Error {
  override readonly name = 'SatStatusUnavailableError';
  override readonly cause: SatStatusFailure;
  readonly detail: string;
  readonly underlying: unknown;

  constructor(cause: SatStatusFailure, detail: string, underlying?: unknown) {
    super(SAT_STATUS_UNAVAILABLE_MESSAGE);
    this.cause = cause;
    this.detail = detail;
    this.underlying = underlying;
  }
}

/** NOTE: SAT's answer is under 1 KB; anything past 64 KB is not it, so it is not read. */
export const SAT_STATUS_MAX_RESPONSE_BYTES = 64 * 1024;

export interface SatStatusClientOptions {
  /** The ConsultaCFDIService endpoint: SAT_STATUS_PRODUCTION_URL, or the sandbox's. */
  url: string;
  /** For the whole exchange, answer included. */
  timeoutMs: number;
  fetch?: typeof globalThis.fetch;
}

export interface SatStatusClient {
  /** SAT's answer for an expression (see cfdiStatusExpression); throws SatStatusUnavailableError otherwise. */
  consult(expression: string): Promise<SatStatusAnswer>;
}

function timedOut(signal: AbortSignal): boolean {
  return signal.aborted && (signal.reason as { name?: unknown } | undefined)?.name === 'TimeoutError';
}

/**
 * The body as UTF-8, refusing more than `maxBytes`. Cancelling the stream on abort also covers an injected
 * fetch whose body ignores the signal.
 */
async function readCapped(response: Response, signal: AbortSignal, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new SatStatusUnavailableError('protocol', `Response declares ${declared} bytes`);
  }
  if (!response.body) return '';
  const reader = response.body.getReader();
  const onAbort = (): void => {
    reader.cancel(signal.reason).catch(() => {});
  };
  signal.addEventListener('abort', onAbort, { once: true });
  const chunks: Uint8Array[] = [];
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (signal.aborted) throw signal.reason;
      if (done) break;
      size += value.byteLength;
      if (size > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new SatStatusUnavailableError('protocol', `Response exceeds ${maxBytes} bytes`);
      }
      chunks.push(value);
    }
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(Buffer.concat(chunks));
  } catch (error) {
    throw new SatStatusUnavailableError('protocol', 'Response is not UTF-8', error);
  }
}

/** A client for SAT's ConsultaCFDIService (research: mexico-receivables-domain §2.2). */
export function createSatStatusClient(options: SatStatusClientOptions): SatStatusClient {
  const { url, timeoutMs, fetch: fetchImpl = globalThis.fetch } = options;
  if (!Number.isInteger(timeoutMs) || timeoutMs <= 0)
    throw new RangeError('timeoutMs must be a positive integer');

  return {
    async consult(expression) {
      const signal = AbortSignal.timeout(timeoutMs);
      const failed = (
        error: unknown,
        fallback: SatStatusFailure,
        detail: string,
      ): SatStatusUnavailableError => {
        if (error instanceof SatStatusUnavailableError) return error;
        if (timedOut(signal))
          return new SatStatusUnavailableError('timeout', `No answer in ${timeoutMs} ms`, error);
        return new SatStatusUnavailableError(fallback, detail, error);
      };

      let response: Response;
      try {
        response = await fetchImpl(url, {
          method: 'POST',
          headers: {
            'Content-Type': 'text/xml; charset=utf-8',
            // NOTE: SOAP 1.1 §6.1.1 quotes the SOAPAction value; WCF accepts it quoted or bare.
            SOAPAction: `"${SAT_STATUS_SOAP_ACTION}"`,
            Accept: 'text/xml',
          },
          body: statusRequestEnvelope(expression),
          signal,
          // A redirect is not SAT's answer; it comes back as a non-2xx status instead of being followed.
          redirect: 'manual',
        });
      } catch (error) {
        throw failed(error, 'network', error instanceof Error ? error.message : String(error));
      }

      if (!response.ok) {
        await response.body?.cancel().catch(() => {});
        throw new SatStatusUnavailableError('http', `HTTP ${response.status}`);
      }

      let body: string;
      try {
        body = await readCapped(response, signal, SAT_STATUS_MAX_RESPONSE_BYTES);
      } catch (error) {
        throw failed(error, 'network', error instanceof Error ? error.message : String(error));
      }

      try {
        return parseStatusResponse(body);
      } catch (error) {
        throw new SatStatusUnavailableError(
          'protocol',
          error instanceof Error ? error.message : String(error),
          error,
        );
      }
    },
  };
}
