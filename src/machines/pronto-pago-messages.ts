import {
  type CallFailure,
  failureText,
  NO_RESPONSE_MESSAGE,
  SESSION_ENDED_MESSAGE,
  UNEXPECTED_MESSAGE,
} from '../domain/call-failure';
import type { MessageResponse, MessageType } from '../domain/schemas/invoices';

/** What the pronto-pago dialogs show: the server's message and its message_type (spec §8). */
export interface DialogMessage {
  message: string;
  messageType: MessageType;
}

export { NO_RESPONSE_MESSAGE, SESSION_ENDED_MESSAGE, UNEXPECTED_MESSAGE };

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
  const message = failureText(error, {
    read: (status) => (status !== null && status !== 0 && status !== 401 && status < 500 ? ['detail'] : []),
    otherwise: (status) =>
      status === 0 ? NO_RESPONSE_MESSAGE : status === 401 ? SESSION_ENDED_MESSAGE : UNEXPECTED_MESSAGE,
  });
  return { message, messageType: 'error' };
}
