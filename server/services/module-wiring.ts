import { applyProgrammeMoves } from '../modules/credit-programmes/programme-hook';
import { subscribeToInvoiceTransitions } from '../modules/invoices/lifecycle.service';
import { importPaymentComplement } from '../modules/payment-complements/payment-complements.service';
import type { PaymentComplementImporter } from '../modules/sat/cfdi-import.service';

/**
 * Where modules that must hear of each other are wired, so none imports back into another: the invoice
 * lifecycle publishes its transitions and the credit programmes' ledger subscribes (decision 0052). Every
 * entry point that may move an invoice calls it (buildApp, the demo seed, the ops commands); calling it again
 * changes nothing.
 */
export function wireModules(): void {
  subscribeToInvoiceTransitions(applyProgrammeMoves);
}

/**
 * The REP importer SAT's sync hands a payment CFDI (type P) to (decision 0070): `payment-complements` imports
 * `sat`, so `sat` receives it as a dependency (SatLinkDeps.paymentComplements) from those who compose both.
 */
export const satPaymentComplementImporter: PaymentComplementImporter = importPaymentComplement;
