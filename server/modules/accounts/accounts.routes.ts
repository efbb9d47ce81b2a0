import type { FastifyPluginAsync } from 'fastify';
import { DemoRequest } from '../../../src/domain/schemas/session';
import { validateForm } from '../../../src/domain/schemas/validate';
import type { Db } from '../../db/database';
import { FieldErrors } from '../../http/errors';
import { insertDemoRequest } from './demo-request.repository';

export const DEMO_REQUEST_SOURCES = ['solicitar-demo', 'alianzas-corporativas'] as const;

/** The user service (mounted at /api/accounts/). Session calls arrive with the session issue. */
export const accountsService: FastifyPluginAsync<{ db: Db }> = async (app, { db }) => {
  app.post('/request-demo/', async (request, reply) => {
    const result = validateForm(DemoRequest, request.body);
    // The spec's client reads the first message of each entry of `errors`.
    if (!result.ok) throw new FieldErrors(result.errors, 'errors');
    const source = (request.query as { source?: string }).source ?? 'solicitar-demo';
    await insertDemoRequest(
      db,
      result.value,
      (DEMO_REQUEST_SOURCES as readonly string[]).includes(source) ? source : 'solicitar-demo',
    );
    return reply.status(201).send({ message: 'Solicitud enviada con éxito' });
  });
};
