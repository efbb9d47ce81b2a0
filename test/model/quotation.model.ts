import type { AnyMachineSnapshot } from 'xstate';
import { quoteResume } from '../../src/domain/corporate-quote';
import type { CorporateQuote } from '../../src/domain/schemas/corporates';
import { quotationMachine } from '../../src/machines/quotation.machine';
import { SESSION_ENDED_BODY } from './authorization-request.model';
import type { MachineModel } from './harness/model';

// Symbolic: each path imports two fresh invoices (100,000.00 MXN each) of the demo provider to the demo
// corporate and saves them as pre-authorized with a payment date 30 days away; ids 1 and 2 stand for them.
function symbolicQuote(id: number): CorporateQuote {
  return {
    id,
    fiscal_folio: `uuid-${id}`,
    serie_folio: `T-${id}`,
    emitter_name: 'Proveedor',
    emitter_rfc: 'EBA120815RTA',
    description: 'Servicio',
    currency: 'MXN',
    amount: '100000.00',
    payment_date: '2026-02-15',
    remaining_days: 30,
    max_rate: 17.4,
    annual_rate: '15.00',
    cost_financing: '1450.00',
    cost_consultancy: '1160.00',
    iva: '160.00',
    net_amount: '97390.00',
  };
}

export const MODEL_LINES = [
  { invoice_id: 1, payment_date: '2026-02-15' },
  { invoice_id: 2, payment_date: '2026-02-15' },
];

/** The server's 400 per line (decision 0028): 'index.field' → messages. */
export const LINE_400_BODY = { '0.payment_date': ['La fecha de pago debe ser posterior a hoy.'] };
export const SERVER_500_BODY = { detail: 'Error interno' };

// Quote: loaded, 400 per line, 500. Pre-approve (provider absorbs): done, 409 after a concurrent change, no
// answer. Accept (buyer absorbs): done, session over (401). 'Pagar a Proveedores': done, 500. 'Rechazar
// Cotización': done, 409 after a concurrent payment.
export const quotationModel: MachineModel = {
  id: 'quotation',
  machine: quotationMachine,
  input: { lines: MODEL_LINES },
  events: [
    {
      type: 'xstate.done.actor.quote',
      output: {
        quotes: [symbolicQuote(1), symbolicQuote(2)],
        resume: quoteResume([symbolicQuote(1), symbolicQuote(2)]),
      },
    },
    { type: 'xstate.error.actor.quote', error: { status: 400, body: LINE_400_BODY } },
    { type: 'xstate.error.actor.quote', error: { status: 500, body: SERVER_500_BODY } },
    { type: 'line.remove', invoiceId: 1 },
    { type: 'line.remove', invoiceId: 2 },
    { type: 'payer.ask' },
    { type: 'payer.provider' },
    { type: 'payer.buyer' },
    { type: 'payer.cancel' },
    { type: 'quotation.accept' },
    {
      type: 'xstate.done.actor.preApprove',
      output: { message: 'Se aprobaron correctamente las facturas', payment_date_message: '' },
    },
    { type: 'xstate.error.actor.preApprove', error: { status: 409, body: { detail: 'concurrente' } } },
    { type: 'xstate.error.actor.preApprove', error: { status: 0, body: null } },
    {
      type: 'xstate.done.actor.accept',
      output: {
        message: 'ok',
        payment_date_message: '',
        quotes: [],
        resume: {
          rate: 17.4,
          total_invoices: 2,
          total_financing: '2900.00',
          total_consultancy: '2320.00',
          total: '5220.00',
          total_financing_usd: '0.00',
          total_consultancy_usd: '0.00',
          total_usd: '0.00',
        },
      },
    },
    { type: 'xstate.error.actor.accept', error: { status: 401, body: SESSION_ENDED_BODY } },
    { type: 'quotation.pay' },
    { type: 'quotation.reject' },
    { type: 'xstate.done.actor.payProviders', output: { message: 'ok', payment_date_message: '' } },
    { type: 'xstate.error.actor.payProviders', error: { status: 500, body: SERVER_500_BODY } },
    { type: 'xstate.done.actor.reject', output: { message: 'ok', payment_date_message: '' } },
    { type: 'xstate.error.actor.reject', error: { status: 409, body: { detail: 'concurrente' } } },
    { type: 'dialog.close' },
  ],
  waivers: {
    'quotation.starting|always|0':
      'the model starts with two saved lines; the page without saved work is its own test in quotation.model.test.tsx',
  },
  // removesLastLine reads how many lines are left.
  abstract: (s: AnyMachineSnapshot) => ({
    value: s.value,
    lines: (s.context as { lines: unknown[] }).lines.length,
  }),
};
