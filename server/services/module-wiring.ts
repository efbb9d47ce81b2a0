import { applyProgrammeMoves } from '../modules/credit-programmes/programme-hook';
import { subscribeToInvoiceTransitions } from '../modules/invoices/lifecycle.service';

/**
 * Where modules that must hear of each other are wired, so none imports back into another: the invoice
 * lifecycle publishes its transitions and the credit programmes' ledger subscribes (decision 0052). Every
 * entry point that may move an invoice calls it (buildApp, the demo seed, the ops commands); calling it again
 * changes nothing.
 */
export function wireModules(): void {
  subscribeToInvoiceTransitions(applyProgrammeMoves);
}
