import { ACTION_FAILED, callFailureOf, type FailureWording, failureText } from '../../domain/call-failure';
import { ApiError } from '../../services/http';
import type { ActionResult } from '../../views/operator/corporates/action-result';

// The back office's own words when no answer came (kept as the screens and their model tests read them).
const NO_ANSWER = 'Sin respuesta del servidor. Revisa tu conexión e intenta de nuevo.';

/** The server's detail, else its first per-field message; no answer and the rest get the screen's texts. */
const ACTION_WORDING: FailureWording = {
  read: (status) => (status === null || status === 0 ? [] : ['detail', '[]']),
  otherwise: (status) => (status === 0 ? NO_ANSWER : ACTION_FAILED),
};

/** An operator action's answer as the screen shows it: the server's Spanish words, per field when it gave them. */
export async function actionResult<T>(call: () => Promise<T>): Promise<ActionResult & { value?: T }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    const failure = error instanceof ApiError ? error : null;
    const message = failureText(failure, ACTION_WORDING);
    const { status, body } = callFailureOf(failure);
    if (status === 0 || !body || Array.isArray(body) || typeof body.detail === 'string')
      return { ok: false, message };
    // Without a detail the refusal is per field: each field shows its own messages.
    const fields = Object.fromEntries(
      Object.entries(body).filter((entry): entry is [string, string[]] => Array.isArray(entry[1])),
    );
    return Object.keys(fields).length > 0 ? { ok: false, message, fields } : { ok: false, message };
  }
}
