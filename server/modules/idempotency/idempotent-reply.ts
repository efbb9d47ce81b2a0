import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Db } from '../../db/database';
import { currentUser } from '../auth/authenticate';
import {
  type CallOutcome,
  parseIdempotencyKey,
  type RefusalMapper,
  runIdempotent,
} from './idempotency.service';

/** NOTE: the header Stripe sends on a replayed answer; clients may use it to tell a retry from a first answer. */
export const REPLAYED_HEADER = 'idempotent-replayed';

/**
 * Answers a money-moving POST through the idempotency layer: the `Idempotency-Key` header (optional) scopes
 * the call to the signed-in user, `execute` runs inside the call's transaction, and a replay sends the first
 * answer's status and body again. Mail and other after-commit work never fail the request.
 */
export async function replyIdempotent(
  request: FastifyRequest,
  reply: FastifyReply,
  db: Db,
  execute: (trx: Db) => Promise<CallOutcome>,
  refusal: RefusalMapper,
): Promise<FastifyReply> {
  const user = currentUser(request);
  const key = parseIdempotencyKey(request.headers['idempotency-key']);
  const result = await runIdempotent(
    db,
    {
      userId: user.id,
      key,
      method: request.method,
      path: request.url.split('?')[0] ?? '',
      body: request.body,
    },
    async (trx) => {
      const outcome = await execute(trx);
      const after = outcome.afterCommit;
      if (!after) return outcome;
      return {
        ...outcome,
        afterCommit: async () => {
          try {
            await after();
          } catch (error) {
            request.log.error({ err: error }, 'after-commit work failed');
          }
        },
      };
    },
    refusal,
  );
  if (result.replayed) reply.header(REPLAYED_HEADER, 'true');
  return reply.status(result.statusCode).send(result.body);
}
