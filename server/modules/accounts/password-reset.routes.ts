import type { FastifyPluginAsync } from 'fastify';
import { retryAfterOnThrottle } from '../auth/http-errors';
import type { AccountsDeps } from './accounts-deps';
import { requestPasswordReset, resetPassword, UnknownEmailError } from './password-reset.service';

/** The two reset calls the spec puts on the invoices service (§7 "Invoices service, common"): /api/users/. */
export const passwordResetRoutes: FastifyPluginAsync<AccountsDeps> = async (app, deps) => {
  retryAfterOnThrottle(app);

  app.post('/request-reset-password/', async (request, reply) => {
    try {
      return await requestPasswordReset(deps, request.body, request.ip);
    } catch (error) {
      if (error instanceof UnknownEmailError) return reply.status(400).send({ message: error.message });
      throw error;
    }
  });

  app.post('/reset-password/', async (request) => resetPassword(deps, request.body));
};
