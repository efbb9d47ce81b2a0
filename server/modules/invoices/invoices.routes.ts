import type { FastifyPluginAsync } from 'fastify';
import type { DatabaseHandle } from '../../db/database';
import type { AccountsDeps } from '../accounts/accounts-deps';
import { passwordResetRoutes } from '../accounts/password-reset.routes';
import { advancedInvoicesRoutes } from '../advanced-invoices/advanced-invoices.routes';
import { healthRoutes } from '../health/health.routes';
import { newsletterService } from '../newsletter/newsletter.routes';
import { prontoPagoRoutes } from './pronto-pago.plugin';

export interface InvoicesServiceOptions {
  database: DatabaseHandle;
  accounts: AccountsDeps;
}

/**
 * The invoices service (mounted at /api/): health, the password-reset calls the spec places here
 * (/users/...), pronto pago (provider, corporate, audit trail), advanced invoices and the newsletter.
 * Self-contained, so it can be mounted without the user service.
 */
export const invoicesService: FastifyPluginAsync<InvoicesServiceOptions> = async (
  app,
  { database, accounts },
) => {
  const { db, mailer, appBaseUrl, now } = accounts;
  await app.register(healthRoutes, { database });
  await app.register(passwordResetRoutes, { prefix: '/users', ...accounts });
  await app.register(prontoPagoRoutes, { db, mailer, appBaseUrl, now });
  await app.register(advancedInvoicesRoutes, { db, now });
  await app.register(newsletterService, { prefix: '/newsletter', db: database.db });
};
