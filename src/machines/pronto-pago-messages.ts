import type { MessageResponse, MessageType } from '../domain/schemas/invoices';
import type { CallFailure } from './demo-request.machine';

/** What the pronto-pago dialogs show: the server's message and its message_type (spec §8). */
export interface DialogMessage {
  message: string;
  messageType: MessageType;
}

export const NO_RESPONSE_MESSAGE =
  'No recibimos respuesta del servidor. Revisa tu conexión e intenta de nuevo.';
export const SESSION_ENDED_MESSAGE = 'Tu sesión terminó. Vuelve a ingresar para continuar.';
export const UNEXPECTED_MESSAGE = 'Ocurrió un error inesperado. Por favor, intenta de nuevo.';

const MESSAGE_TYPES: readonly MessageType[] = ['success', 'error', 'info', 'warning'];

/** The dialog for a successful answer. */
export function messageFromResponse(response: MessageResponse): DialogMessage {
  return { message: response.message, messageType: response.message_type };
}

/** True when no answer arrived (network loss): the call may or may not have reached the server. */
export function isNoResponse(error: unknown): boolean {
  return (error as Partial<CallFailure> | null)?.status === 0;
}

/**
 * A failed call as a dialog: the server's message and message_type when it sent them (the provider calls
 * do, docs/decisions/0012), else its detail, else a Spanish text for no response, an ended session or the rest.
 */
export function messageFromFailure(error: unknown): DialogMessage {
  const failure = error as Partial<CallFailure> | null;
  const body = (failure?.body ?? null) as {
    message?: unknown;
    message_type?: unknown;
    detail?: unknown;
  } | null;
  const type = MESSAGE_TYPES.find((t) => t === body?.message_type) ?? 'error';
  if (typeof body?.message === 'string' && body.message.trim())
    return { message: body.message, messageType: type };
  if (failure?.status === 0) return { message: NO_RESPONSE_MESSAGE, messageType: 'error' };
  if (failure?.status === 401) return { message: SESSION_ENDED_MESSAGE, messageType: 'error' };
  if (
    typeof body?.detail === 'string' &&
    body.detail.trim() &&
    failure?.status !== undefined &&
    failure.status < 500
  )
    return { message: body.detail, messageType: 'error' };
  return { message: UNEXPECTED_MESSAGE, messageType: 'error' };
}
