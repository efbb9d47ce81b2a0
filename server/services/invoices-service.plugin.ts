import type { FastifyPluginAsync } from 'fastify';
import type { AccountsDeps } from '../modules/accounts/accounts-deps';
import { passwordResetRoutes } from '../modules/accounts/password-reset.routes';
import { advancedInvoicesRoutes } from '../modules/advanced-invoices/advanced-invoices.routes';
import { bulkUploadRoutes } from '../modules/corporates/bulk-upload.routes';
import { corporatesRoutes } from '../modules/corporates/corporates.routes';
import { factoringRoutes } from '../modules/factoring/factoring.routes';
import { healthRoutes } from '../modules/health/health.routes';
import { auditTrailRoutes } from '../modules/invoices/audit-trail.routes';
import { cfdiProofRoutes } from '../modules/invoices/cfdi-proof.routes';
import { forwardPaymentRoutes } from '../modules/invoices/forward-payment.routes';
import { invoiceEventsRoutes } from '../modules/invoices/invoice-events.routes';
import { corporateMaturitiesRoutes } from '../modules/maturities/maturities.routes';
import { newsletterService } from '../modules/newsletter/newsletter.routes';
import { paymentComplementsRoutes } from '../modules/payment-complements/payment-complements.routes';
import { providerSectionsRoutes } from '../modules/providers/provider-sections.routes';
import { providersRoutes } from '../modules/providers/providers.routes';
import { monthlyStatementsRoutes } from '../modules/statements/monthly-statements.routes';
import { statementsRoutes } from '../modules/statements/statements.routes';
import { operatorPlugin } from './operator.plugin';

export interface InvoicesServiceOptions {
  /** The password-reset calls the spec places on this service share the user service's session services. */
  accounts: AccountsDeps;
  /** The bulk uploads' limit (UPLOAD_MAX_MB). */
  uploads: { maxBytes: number };
  /** Flujo's operations desk: referrals and alliance requests are e-mailed here (OPERATOR_EMAIL). */
  operatorEmail: string;
  /** Flujo's collection CLABE, shown with a corporate's next maturities (COLLECTION_CLABE). */
  collectionClabe: string;
}

/**
 * The invoices service (mounted at /api/): health, the password-reset calls the spec places here
 * (/users/...), pronto pago (provider, corporate and its bulk uploads, audit trail), factoring, advanced invoices
 * the newsletter and the financier's back office (/api/operator/).
 * Self-contained, so it can be mounted without the user service; database, mailer and clock come from the
 * instance's decorations (server/plugins/core.plugin.ts).
 */
export const invoicesService: FastifyPluginAsync<InvoicesServiceOptions> = async (
  app,
  { accounts, uploads, operatorEmail, collectionClabe },
) => {
  await app.register(healthRoutes);
  await app.register(passwordResetRoutes, { prefix: '/users', ...accounts });
  await app.register(providersRoutes);
  await app.register(forwardPaymentRoutes);
  await app.register(factoringRoutes);
  await app.register(providerSectionsRoutes, { operatorEmail, publicWrites: accounts.publicWrites });
  await app.register(corporatesRoutes);
  await app.register(bulkUploadRoutes, uploads);
  await app.register(invoiceEventsRoutes);
  await app.register(cfdiProofRoutes);
  await app.register(paymentComplementsRoutes);
  await app.register(auditTrailRoutes);
  await app.register(advancedInvoicesRoutes);
  await app.register(statementsRoutes);
  await app.register(monthlyStatementsRoutes);
  await app.register(corporateMaturitiesRoutes, { collectionClabe });
  await app.register(newsletterService, { prefix: '/newsletter', publicWrites: accounts.publicWrites });
  await app.register(operatorPlugin, { prefix: '/operator' });
};
