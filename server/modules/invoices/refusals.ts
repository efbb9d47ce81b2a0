import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { MessageType } from '../../../src/domain/schemas/invoices';
import { FieldErrors } from '../../http/errors';
import type { RefusalMapper } from '../idempotency/idempotency.service';

// Business refusals: the caller may not (403), the invoice is not theirs or does not exist (404), the
// lifecycle does not allow it now (409), or the request contradicts an earlier one (422).
const REFUSAL_STATUSES: ReadonlySet<number> = new Set([403, 404, 409, 422]);

function refusal(error: unknown): { statusCode: number; message: string } | null {
  if (error instanceof FieldErrors || !(error instanceof Error)) return null;
  const statusCode = (error as { statusCode?: unknown }).statusCode;
  return typeof statusCode === 'number' && REFUSAL_STATUSES.has(statusCode)
    ? { statusCode, message: error.message }
    : null;
}

/** {detail} like every other error of the API. */
export const detailRefusal: RefusalMapper = (error) => {
  const found = refusal(error);
  return found && { statusCode: found.statusCode, body: { detail: found.message } };
};

/**
 * The provider calls' client shows the server's message and message_type in its alert dialog (spec §8),
 * so their refusals carry both, beside the usual detail.
 */
export const dialogRefusal: RefusalMapper = (error) => {
  const found = refusal(error);
  const messageType: MessageType = 'error';
  return (
    found && {
      statusCode: found.statusCode,
      body: { detail: found.message, message: found.message, message_type: messageType },
    }
  );
};

/** Plugin-level error handler for dialog calls; anything else goes on to the app's handler. */
export async function dialogErrorHandler(
  error: FastifyError | Error,
  _request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const answer = dialogRefusal(error);
  if (!answer) throw error;
  return reply.status(answer.statusCode).send(answer.body);
}
