/** What a failed call looks like to the client; the services' ApiError has this shape. `status` 0: no answer. */
export interface CallFailure {
  status: number;
  body: unknown;
}

// The texts several screens show for the same failure, written once.
export const NO_RESPONSE_MESSAGE =
  'No recibimos respuesta del servidor. Revisa tu conexión e intenta de nuevo.';
export const SESSION_ENDED_MESSAGE = 'Tu sesión terminó. Vuelve a ingresar para continuar.';
export const UNEXPECTED_MESSAGE = 'Ocurrió un error inesperado. Por favor, intenta de nuevo.';
/** A back-office action the server refused without saying why. */
export const ACTION_FAILED = 'No pudimos completar la acción. Intenta de nuevo.';

/**
 * How one screen words a failed call. `read` names the parts of the answer's body whose Spanish is shown, in
 * order, for an answer with that status (null: the error is not a call's failure): a field name reads its text
 * or the first text of its list; '[]' the first text of any field's list (a 400's per-field errors); '*' the
 * first text of any field, text or list. `otherwise` is the screen's own text when the body said nothing
 * readable, so a server error or no answer never shows raw server text unless the screen reads it.
 */
export interface FailureWording {
  read: (status: number | null) => readonly string[];
  otherwise: (status: number | null) => string;
}

/** The status and JSON object body of a failed call; a status of null when `error` is not one. */
export function callFailureOf(error: unknown): {
  status: number | null;
  body: Record<string, unknown> | null;
} {
  const failure = error as Partial<CallFailure> | null | undefined;
  const status = typeof failure?.status === 'number' ? failure.status : null;
  const body = failure?.body;
  return { status, body: body && typeof body === 'object' ? (body as Record<string, unknown>) : null };
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value : null;
}

function firstText(value: unknown): string | null {
  return text(Array.isArray(value) ? value[0] : value);
}

function readSource(body: Record<string, unknown>, source: string): string | null {
  if (source === '[]') {
    for (const value of Object.values(body)) {
      const found = Array.isArray(value) ? firstText(value) : null;
      if (found) return found;
    }
    return null;
  }
  if (source === '*') {
    for (const value of Object.values(body).flat()) if (text(value)) return value as string;
    return null;
  }
  return firstText(body[source]);
}

/** A control-desk refusal: the server's detail (its reasons come apart, in `errors`), else ACTION_FAILED. */
export const DESK_REFUSAL: FailureWording = {
  read: () => ['detail'],
  otherwise: () => ACTION_FAILED,
};

/**
 * The one way a failed call becomes the Spanish text a person reads, on both sides of Flujo: the body parts the
 * screen's wording reads, else its own text. Example: failureText({ status: 409, body: { detail: 'Ya existe.' } },
 * { read: () => ['detail'], otherwise: () => ACTION_FAILED }) === 'Ya existe.'.
 */
export function failureText(error: unknown, wording: FailureWording): string {
  const { status, body } = callFailureOf(error);
  if (body) {
    for (const source of wording.read(status)) {
      const found = readSource(body, source);
      if (found) return found;
    }
  }
  return wording.otherwise(status);
}
