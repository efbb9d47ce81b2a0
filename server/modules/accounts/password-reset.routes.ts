import type { FastifyPluginAsync } from 'fastify';
import {
  PasswordReset,
  PasswordResetRequest,
  PlainMessageResponse,
} from '../../../src/domain/schemas/session';
import type { RouteDoc } from '../../http/openapi';
import { publicWriteLimitDoc } from '../auth/public-write-limits';
import type { AccountsDeps } from './accounts-deps';
import {
  passwordResetRefusal,
  requestPasswordReset,
  resetPassword,
  UnknownEmailError,
} from './password-reset.service';

const DOCS = {
  requestReset: {
    summary: 'Mail a password-reset link',
    description:
      'Envía al correo un enlace de un solo uso para elegir una contraseña nueva; vence en 60 minutos.',
    body: PasswordResetRequest,
    response: PlainMessageResponse,
    responses: {
      400: {
        description: 'Correo inválido ({email: [mensaje]}) o sin cuenta activa ({message}).',
        schema: {
          anyOf: [
            { $ref: '#/components/schemas/FieldErrors' },
            { type: 'object', properties: { message: { type: 'string' } }, required: ['message'] },
          ],
        },
      },
      429: publicWriteLimitDoc('resetRequest'),
    },
  },
  reset: {
    summary: 'Set a new password with a reset link',
    description:
      'Fija la contraseña nueva con el token del enlace y termina todas las sesiones; cada error se lista ' +
      'también en old_password.',
    body: PasswordReset,
    response: PlainMessageResponse,
  },
} satisfies Record<string, RouteDoc>;

/** The two reset calls the spec puts on the invoices service (§7 "Invoices service, common"): /api/users/. */
export const passwordResetRoutes: FastifyPluginAsync<AccountsDeps> = async (app, deps) => {
  app.post<{ Body: PasswordResetRequest }>(
    '/request-reset-password/',
    { config: { openapi: DOCS.requestReset } },
    async (request, reply) => {
      try {
        return await requestPasswordReset(deps, request.body, request.ip);
      } catch (error) {
        if (error instanceof UnknownEmailError) return reply.status(400).send({ message: error.message });
        throw error;
      }
    },
  );

  app.post<{ Body: PasswordReset }>(
    '/reset-password/',
    {
      config: {
        openapi: DOCS.reset,
        invalidBody: (errors, request) => {
          throw passwordResetRefusal(errors, request.body);
        },
      },
    },
    async (request) => resetPassword(deps, request.body),
  );
};
