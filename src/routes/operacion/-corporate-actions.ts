import { ApiError } from '../../services/http';
import type { ActionResult } from '../../views/operator/corporates/action-result';

const GENERIC = 'No pudimos completar la acción. Intenta de nuevo.';
const NO_ANSWER = 'Sin respuesta del servidor. Revisa tu conexión e intenta de nuevo.';

/** An operator action's answer as the screen shows it: the server's Spanish words, per field when it gave them. */
export async function actionResult<T>(call: () => Promise<T>): Promise<ActionResult & { value?: T }> {
  try {
    return { ok: true, value: await call() };
  } catch (error) {
    if (!(error instanceof ApiError)) return { ok: false, message: GENERIC };
    if (error.status === 0) return { ok: false, message: NO_ANSWER };
    const body = error.body;
    if (typeof body === 'object' && body !== null && !Array.isArray(body)) {
      const record = body as Record<string, unknown>;
      if (typeof record.detail === 'string') return { ok: false, message: record.detail };
      const fields = Object.fromEntries(
        Object.entries(record).filter((entry): entry is [string, string[]] => Array.isArray(entry[1])),
      );
      if (Object.keys(fields).length > 0) {
        return { ok: false, message: Object.values(fields).flat()[0] ?? GENERIC, fields };
      }
    }
    return { ok: false, message: GENERIC };
  }
}
