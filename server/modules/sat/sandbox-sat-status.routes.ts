import type { FastifyInstance } from 'fastify';
import { type CfdiAuthenticity, SANDBOX_STATUS_PATH, sandboxDocumentState } from './cfdi-authenticity';
import { answerStatusRequest } from './sandbox-sat-status';

/** SOAP requests are a few hundred bytes; the route reads no more than a real SAT would accept. */
const MAX_SOAP_REQUEST_BYTES = 16 * 1024;

/**
 * The sandbox SAT's ConsultaCFDIService on HTTP (development and tests only): the same SOAP the production
 * client sends to SAT, answered from the demo authority's stamps and the sandbox's cancellations.
 */
export function registerSandboxSatStatus(app: FastifyInstance, authenticity: CfdiAuthenticity): void {
  app.register(async (sandbox) => {
    sandbox.addContentTypeParser(
      ['text/xml', 'application/soap+xml'],
      { parseAs: 'string', bodyLimit: MAX_SOAP_REQUEST_BYTES },
      (_request, body, done) => done(null, body),
    );
    sandbox.post(SANDBOX_STATUS_PATH, async (request, reply) => {
      const body = typeof request.body === 'string' ? request.body : '';
      const answer = await answerStatusRequest(body, (fields) =>
        sandboxDocumentState(app.db, authenticity.demo, fields),
      );
      return reply.status(answer.status).type('text/xml; charset=utf-8').send(answer.body);
    });
  });
}
