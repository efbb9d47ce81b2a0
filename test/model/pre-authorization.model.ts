import type { AnyMachineSnapshot } from 'xstate';
import { preAuthorizationMachine } from '../../src/machines/pre-authorization.machine';
import type { MachineModel } from './harness/model';

// Symbolic invoices and dates: each path imports two fresh invoices (A, B) of the demo provider to the demo
// corporate; 'valid' stands for a date within 150 days of A's emission, 'too far' for 151 days after it.
export const MODEL_EMISSION = '2026-01-01';
export const INVOICE_A = { id: 1, folio: 'A', emissionDate: MODEL_EMISSION } as const;
export const INVOICE_B = { id: 2, folio: 'B', emissionDate: MODEL_EMISSION } as const;
export const VALID_DATE = '2026-02-15';
export const TOO_FAR_DATE = '2026-06-01';

export const preAuthorizationModel: MachineModel = {
  id: 'pre-authorization',
  machine: preAuthorizationMachine,
  // Today is the symbolic invoices' emission, so VALID_DATE is after it (the page uses the real clock).
  input: { invoices: [], savedAt: 0, today: MODEL_EMISSION },
  // B is only selected through «Seleccionar todos» and never gets a date: quoting then shows «Requerido».
  events: [
    { type: 'invoice.toggle', invoice: INVOICE_A },
    { type: 'invoice.toggleAll', invoices: [INVOICE_A, INVOICE_B] },
    { type: 'date.change', invoiceId: INVOICE_A.id, paymentDate: VALID_DATE },
    { type: 'date.change', invoiceId: INVOICE_A.id, paymentDate: TOO_FAR_DATE },
    { type: 'quote' },
    { type: 'dialog.close' },
  ],
  waivers: {
    'pre-authorization.restoring|always|0':
      'the page opened with saved work: the fake-clock reload tests of pre-authorization.model.test.tsx',
  },
  // The guards read which invoices are selected and their dates.
  abstract: (s: AnyMachineSnapshot) => ({
    value: s.value,
    invoices: (s.context as { invoices: { id: number; paymentDate: string | null }[] }).invoices.map(
      (item) => `${item.id}:${item.paymentDate ?? ''}`,
    ),
  }),
};
