import { describe, expect, it } from 'vitest';
import { InvoiceStatus, type InvoiceStatusCode, PROVIDER_STATUSES } from '../domain/invoice-status';
import {
  acceptedInvoiceEvents,
  canRequestFactoring,
  INVOICE_EVENT_TYPES,
  INVOICE_REFUSALS,
  invoiceEventRefusal,
  invoiceRefusal,
  type LifecycleInvoice,
  PRE_AUTHORIZABLE_STATUSES,
  resolveInvoiceSnapshot,
  viewerInvoiceEvents,
} from './invoice-actions';
import type { InvoiceLifecycleEventType, LifecycleActor } from './invoice-lifecycle.machine';
import { STATE_BY_STATUS } from './invoice-lifecycle.machine';

const EMITTER = 11;
const RECEIVER = 22;
const EMISSION = '2026-01-01';
/** Day 150 after EMISSION (allowed) and day 151 (refused), spec §5. */
const DAY_150 = '2026-05-31';
const DAY_151 = '2026-06-01';

const ACTORS = {
  emitter: { kind: 'provider', companyId: EMITTER, satAuthorized: true },
  emitterWithoutSatLink: { kind: 'provider', companyId: EMITTER, satAuthorized: false },
  receiver: { kind: 'corporate', companyId: RECEIVER, satAuthorized: true },
  stranger: { kind: 'corporate', companyId: 33, satAuthorized: true },
  operator: { kind: 'operator', companyId: null, satAuthorized: false },
  sat: { kind: 'sat', companyId: null, satAuthorized: false },
} satisfies Record<string, LifecycleActor>;

function invoice(status: InvoiceStatusCode, dateOfEmission = EMISSION): LifecycleInvoice {
  return { status, emitterCompanyId: EMITTER, receiverCompanyId: RECEIVER, dateOfEmission };
}

function sorted(events: ReadonlySet<InvoiceLifecycleEventType>): InvoiceLifecycleEventType[] {
  return [...events].sort();
}

describe('resolveInvoiceSnapshot', () => {
  it('puts a stored status in the machine state of the same name, with the invoice as context', () => {
    for (const status of PROVIDER_STATUSES) {
      const snapshot = resolveInvoiceSnapshot(invoice(status));
      expect(snapshot.value).toBe(STATE_BY_STATUS[status]);
      expect(snapshot.context).toEqual({
        emitterCompanyId: EMITTER,
        receiverCompanyId: RECEIVER,
        dateOfEmission: EMISSION,
      });
    }
  });
});

describe('acceptedInvoiceEvents', () => {
  it('lists what each side may do in each state (decision 0003)', () => {
    const { AVAILABLE, PENDING, APPROVED, PROCESS, REJECTED } = InvoiceStatus;
    expect(sorted(acceptedInvoiceEvents(invoice(AVAILABLE), ACTORS.emitter))).toEqual([
      'invoice.requestAuthorization',
      'invoice.transferToFactoring',
    ]);
    expect(sorted(acceptedInvoiceEvents(invoice(AVAILABLE), ACTORS.receiver))).toEqual([
      'invoice.preAuthorize',
    ]);
    expect(sorted(acceptedInvoiceEvents(invoice(PENDING), ACTORS.receiver))).toEqual([
      'invoice.authorize',
      'invoice.reject',
    ]);
    expect(sorted(acceptedInvoiceEvents(invoice(APPROVED), ACTORS.emitter))).toEqual([
      'invoice.approveAdvance',
      'invoice.transferToFactoring',
    ]);
    expect(sorted(acceptedInvoiceEvents(invoice(PROCESS), ACTORS.operator))).toEqual([
      'invoice.deskReject',
      'invoice.disburse',
    ]);
    expect(sorted(acceptedInvoiceEvents(invoice(PROCESS), ACTORS.sat))).toEqual(['invoice.cancelAtSat']);
    expect(sorted(acceptedInvoiceEvents(invoice(REJECTED), ACTORS.emitter))).toEqual([
      'invoice.transferToFactoring',
    ]);
  });

  it('accepts nothing in the final states, and nothing from a stranger or without a SAT link', () => {
    for (const status of [InvoiceStatus.PAID, InvoiceStatus.FACTORING, InvoiceStatus.DISABLED] as const) {
      for (const actor of Object.values(ACTORS)) {
        expect(acceptedInvoiceEvents(invoice(status), actor).size, `${status} ${actor.kind}`).toBe(0);
      }
    }
    for (const status of PROVIDER_STATUSES) {
      expect(acceptedInvoiceEvents(invoice(status), ACTORS.stranger).size).toBe(0);
      expect(acceptedInvoiceEvents(invoice(status), ACTORS.emitterWithoutSatLink).size).toBe(0);
    }
  });

  it('counts an event carrying a payment date as accepted when a valid date would be', () => {
    // Emitted a year before any date a caller might pick: the state still accepts authorize with a valid date.
    const old = invoice(InvoiceStatus.PENDING, '2025-01-01');
    expect(acceptedInvoiceEvents(old, ACTORS.receiver).has('invoice.authorize')).toBe(true);
  });
});

describe('viewerInvoiceEvents', () => {
  it('shows a provider "Solicitar adelanto" on AVAILABLE rows and "Adelantar pago" on APPROVED rows only', () => {
    for (const status of PROVIDER_STATUSES) {
      const events = viewerInvoiceEvents({ status, date_of_emission: EMISSION }, 'provider');
      expect(events.has('invoice.requestAuthorization'), `${status}`).toBe(
        status === InvoiceStatus.AVAILABLE,
      );
      expect(events.has('invoice.approveAdvance'), `${status}`).toBe(status === InvoiceStatus.APPROVED);
    }
  });

  it('gives a corporate the answer to a PENDING request, and pre-authorization of AVAILABLE or REJECTED rows', () => {
    for (const status of PROVIDER_STATUSES) {
      const events = viewerInvoiceEvents({ status, date_of_emission: EMISSION }, 'corporate');
      expect(events.has('invoice.authorize'), `${status}`).toBe(status === InvoiceStatus.PENDING);
      expect(events.has('invoice.reject'), `${status}`).toBe(status === InvoiceStatus.PENDING);
      expect(events.has('invoice.preAuthorize'), `${status}`).toBe(
        status === InvoiceStatus.AVAILABLE || status === InvoiceStatus.REJECTED,
      );
      expect(events.has('invoice.requestAuthorization')).toBe(false);
    }
  });
});

describe('invoiceRefusal', () => {
  it('has the words the provider calls answer today', () => {
    expect(invoiceRefusal('invoice.requestAuthorization', InvoiceStatus.PENDING)).toBe(
      'Ya solicitaste la autorización de esta factura. Tu cliente responderá en un plazo máximo de 24 horas.',
    );
    expect(invoiceRefusal('invoice.requestAuthorization', InvoiceStatus.APPROVED)).toBe(
      'No puedes solicitar la autorización de esta factura: su estado es «Autorizada». Solo las facturas Por Autorizar pueden solicitarse.',
    );
    expect(invoiceRefusal('invoice.approveAdvance', InvoiceStatus.PROCESS)).toBe(
      'El adelanto de esta factura ya está en trámite.',
    );
    expect(invoiceRefusal('invoice.approveAdvance', InvoiceStatus.REJECTED)).toBe(
      'No puedes adelantar esta factura: su estado es «Rechazada». Solo las facturas Autorizadas por tu cliente pueden adelantarse.',
    );
  });

  it('names the invoice when given its label', () => {
    expect(invoiceRefusal('invoice.authorize', InvoiceStatus.APPROVED, 'A-12')).toBe(
      'La factura A-12 no tiene una solicitud pendiente: su estado es «Autorizada».',
    );
    expect(invoiceRefusal('invoice.reject', InvoiceStatus.PAID, 'A-12')).toBe(
      'La factura A-12 no tiene una solicitud pendiente: su estado es «Pagada».',
    );
    expect(invoiceRefusal('invoice.disburse', InvoiceStatus.AVAILABLE, 'A-12')).toBe(
      'La factura A-12 no está En trámite (estado: Por Autorizar); no se dispersa.',
    );
  });

  it('has words for every event in every state, and state-specific words only where the machine refuses', () => {
    for (const type of INVOICE_EVENT_TYPES) {
      for (const status of PROVIDER_STATUSES) expect(invoiceRefusal(type, status).length).toBeGreaterThan(20);
      const refusals: Record<string, unknown> = INVOICE_REFUSALS[type];
      for (const status of PROVIDER_STATUSES.filter((s) => STATE_BY_STATUS[s] in refusals)) {
        for (const actor of Object.values(ACTORS)) {
          expect(acceptedInvoiceEvents(invoice(status), actor).has(type), `${type} at ${status}`).toBe(false);
        }
      }
    }
  });
});

describe('invoiceEventRefusal', () => {
  it('is null for an event the machine accepts, including day 150', () => {
    const event = { type: 'invoice.authorize', actor: ACTORS.receiver, paymentDate: DAY_150 } as const;
    expect(invoiceEventRefusal(invoice(InvoiceStatus.PENDING), event, 'A-1')).toBeNull();
  });

  it('blames the payment date when the state has the event and only the 150-day guard refuses', () => {
    for (const [status, type] of [
      [InvoiceStatus.PENDING, 'invoice.authorize'],
      [InvoiceStatus.AVAILABLE, 'invoice.preAuthorize'],
    ] as const) {
      const event = { type, actor: ACTORS.receiver, paymentDate: DAY_151 };
      expect(invoiceEventRefusal(invoice(status), event, 'A-1')).toEqual({
        cause: 'paymentDate',
        message:
          'La fecha de pago de la factura A-1 excede el rango permitido de 150 días desde su emisión (01/01/2026).',
      });
    }
  });

  it('blames the state when the state has no such event, whatever the date', () => {
    const event = { type: 'invoice.authorize', actor: ACTORS.receiver, paymentDate: DAY_151 } as const;
    expect(invoiceEventRefusal(invoice(InvoiceStatus.APPROVED), event, 'A-1')).toEqual({
      cause: 'state',
      message: 'La factura A-1 no tiene una solicitud pendiente: su estado es «Autorizada».',
    });
  });

  it('blames the state, not the date, when the actor may not send the event', () => {
    const event = { type: 'invoice.authorize', actor: ACTORS.stranger, paymentDate: DAY_151 } as const;
    expect(invoiceEventRefusal(invoice(InvoiceStatus.PENDING), event, 'A-1')?.cause).toBe('state');
  });
});

describe('canRequestFactoring', () => {
  it('offers factoring for every provider status but Pagada, factoraje, En trámite and Cancelada (spec §4)', () => {
    const offered = PROVIDER_STATUSES.filter((status) =>
      canRequestFactoring({ status, date_of_emission: '2026-01-01' }),
    );
    expect(new Set(offered)).toEqual(
      new Set([
        InvoiceStatus.AVAILABLE,
        InvoiceStatus.PENDING,
        InvoiceStatus.APPROVED,
        InvoiceStatus.REJECTED,
      ]),
    );
  });
});

describe('PRE_AUTHORIZABLE_STATUSES', () => {
  it('are the statuses the machine lets a corporate set a payment date on: Por Autorizar, Solicitado, Rechazada', () => {
    expect([...PRE_AUTHORIZABLE_STATUSES].sort()).toEqual(
      [InvoiceStatus.AVAILABLE, InvoiceStatus.PENDING, InvoiceStatus.REJECTED].sort(),
    );
  });
});
