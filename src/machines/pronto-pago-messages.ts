import {
  type CallFailure,
  callFailureOf,
  type FailureWording,
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
 * How the pronto-pago dialogs word a failed call (call-failure.ts's failureText): the server's message when it
 * sent one (the provider calls do, docs/decisions/0012), else a refusal's detail, else a Spanish text for no
 * response, an ended session or the rest.
 */
export const PRONTO_PAGO_WORDING: FailureWording = {
  read: (status) =>
    status !== null && status !== 0 && status !== 401 && status < 500 ? ['message', 'detail'] : ['message'],
  otherwise: (status) =>
    status === 0 ? NO_RESPONSE_MESSAGE : status === 401 ? SESSION_ENDED_MESSAGE : UNEXPECTED_MESSAGE,
};

/** A failed call as a dialog: PRONTO_PAGO_WORDING's text, with the server's message_type when its message shows. */
export function messageFromFailure(error: unknown): DialogMessage {
  const { body } = callFailureOf(error);
  const ownMessage = typeof body?.message === 'string' && body.message.trim() !== '';
  const messageType = (ownMessage && MESSAGE_TYPES.find((type) => type === body?.message_type)) || 'error';
  return { message: failureText(error, PRONTO_PAGO_WORDING), messageType };
}

/**
 * A failed load (a quote): the server's own words when it refused (a 4xx: not enabled, no alliance, date
 * passed…), else the screen's `otherwise` text (no answer, server error).
 */
export function messageFromRefusal(error: unknown, otherwise: string): DialogMessage {
  const { status } = callFailureOf(error);
  if (status !== null && status >= 400 && status < 500) return messageFromFailure(error);
  return { message: otherwise, messageType: 'error' };
}
