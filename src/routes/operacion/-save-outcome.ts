import { ApiError } from '../../services/http';
import type { SaveOutcome } from '../../views/operator/alliances/alliance-form-dialog';

const GENERIC = 'No pudimos guardar. Por favor, intenta de nuevo.';

/** A failed POST as the form shows it: the server's Spanish messages per field, or its detail. */
export function saveOutcomeOf(error: unknown): SaveOutcome {
  if (!(error instanceof ApiError) || error.body === null || typeof error.body !== 'object') {
    return { ok: false, fields: {}, detail: GENERIC };
  }
  const body = error.body as Record<string, unknown>;
  if (typeof body.detail === 'string') return { ok: false, fields: {}, detail: body.detail };
  const fields: Record<string, string[]> = {};
  for (const [name, messages] of Object.entries(body)) {
    if (Array.isArray(messages)) fields[name] = messages.filter((m): m is string => typeof m === 'string');
  }
  return { ok: false, fields, detail: Object.keys(fields).length === 0 ? GENERIC : null };
}
