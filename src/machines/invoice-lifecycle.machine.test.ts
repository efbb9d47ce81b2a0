import { describe, expect, it } from 'vitest';
import { type SnapshotFrom, transition } from 'xstate';
import { InvoiceStatus } from '../domain/invoice-status';
import {
  type InvoiceLifecycleContext,
  type InvoiceLifecycleEvent,
  type InvoiceLifecycleEventType,
  invoiceLifecycleMachine,
  type LifecycleActor,
  STATE_BY_STATUS,
  STATUS_BY_STATE,
} from './invoice-lifecycle.machine';

// The machine is evaluated the way the server does it (lifecycle.service.ts): resolve the stored status into
// a snapshot, ask can(), take the pure transition(). No actor runs, nothing is rendered or fetched.

const EMITTER = 11;
const RECEIVER = 22;
const STRANGER = 33;
const EMISSION = '2026-01-01';
/** 45 days after EMISSION: inside the 150-day limit, for rows that are not about the limit. */
const PAYMENT_DATE = '2026-02-15';
/** Day 150 after EMISSION (allowed) and day 151 (refused), spec §5. */
const DAY_150 = '2026-05-31';
const DAY_151 = '2026-06-01';

const CONTEXT: InvoiceLifecycleContext = {
  emitterCompanyId: EMITTER,
  receiverCompanyId: RECEIVER,
  dateOfEmission: EMISSION,
};

const ACTORS = {
  emitter: { kind: 'provider', companyId: EMITTER, satAuthorized: true },
  emitterWithoutSatLink: { kind: 'provider', companyId: EMITTER, satAuthorized: false },
  otherProvider: { kind: 'provider', companyId: STRANGER, satAuthorized: true },
  // A provider user of the receiving company is still not its corporate side.
  providerOfReceiver: { kind: 'provider', companyId: RECEIVER, satAuthorized: true },
  receiver: { kind: 'corporate', companyId: RECEIVER, satAuthorized: true },
  receiverWithoutSatLink: { kind: 'corporate', companyId: RECEIVER, satAuthorized: false },
  otherCorporate: { kind: 'corporate', companyId: STRANGER, satAuthorized: true },
  corporateOfEmitter: { kind: 'corporate', companyId: EMITTER, satAuthorized: true },
  operator: { kind: 'operator', companyId: null, satAuthorized: false },
  sat: { kind: 'sat', companyId: null, satAuthorized: false },
} satisfies Record<string, LifecycleActor>;
type ActorName = keyof typeof ACTORS;

const STATES = ['available', 'pending', 'approved', 'process', 'rejected', 'paid', 'factoring', 'disabled'];
type StateName = (typeof STATES)[number];

const EVENT_TYPES: InvoiceLifecycleEventType[] = [
  'invoice.requestAuthorization',
  'invoice.authorize',
  'invoice.preAuthorize',
  'invoice.reject',
  'invoice.approveAdvance',
  'invoice.disburse',
  'invoice.cancelAtSat',
  'invoice.transferToFactoring',
];

function eventOf(
  type: InvoiceLifecycleEventType,
  actor: LifecycleActor,
  paymentDate = PAYMENT_DATE,
): InvoiceLifecycleEvent {
  if (type === 'invoice.authorize' || type === 'invoice.preAuthorize') return { type, actor, paymentDate };
  if (type === 'invoice.reject') return { type, actor, reason: 'Sin presupuesto este mes' };
  return { type, actor } as InvoiceLifecycleEvent;
}

function snapshotIn(state: StateName, context = CONTEXT): SnapshotFrom<typeof invoiceLifecycleMachine> {
  return invoiceLifecycleMachine.resolveState({ value: state, context });
}

/** The next state, or 'refused' when the machine does not take the event (the server answers 409). */
function outcome(state: StateName, event: InvoiceLifecycleEvent, context = CONTEXT): string {
  const snapshot = snapshotIn(state, context);
  const [next, actions] = transition(invoiceLifecycleMachine, snapshot, event);
  // Pure: no action to execute and the invoice's facts are untouched, taken or not.
  expect(actions).toEqual([]);
  expect(next.context).toEqual(context);
  if (!snapshot.can(event)) {
    expect(next.value).toBe(state);
    return 'refused';
  }
  return String(next.value);
}

// Every transition the machine allows (docs/decisions/0003-invoice-lifecycle.md): state, event, actor → next.
// Anything not listed here is refused; the table below checks the whole product of states × events × actors.
const ALLOWED: [StateName, InvoiceLifecycleEventType, ActorName, StateName][] = [
  ['available', 'invoice.requestAuthorization', 'emitter', 'pending'],
  ['available', 'invoice.preAuthorize', 'receiver', 'approved'],
  ['available', 'invoice.transferToFactoring', 'emitter', 'factoring'],
  ['available', 'invoice.cancelAtSat', 'sat', 'disabled'],
  ['pending', 'invoice.authorize', 'receiver', 'approved'],
  ['pending', 'invoice.reject', 'receiver', 'rejected'],
  ['pending', 'invoice.transferToFactoring', 'emitter', 'factoring'],
  ['pending', 'invoice.cancelAtSat', 'sat', 'disabled'],
  ['approved', 'invoice.approveAdvance', 'emitter', 'process'],
  ['approved', 'invoice.transferToFactoring', 'emitter', 'factoring'],
  ['approved', 'invoice.cancelAtSat', 'sat', 'disabled'],
  ['process', 'invoice.disburse', 'operator', 'paid'],
  ['process', 'invoice.cancelAtSat', 'sat', 'disabled'],
  // REJECTED: the buyer may still pre-authorize, the provider may factor, SAT may cancel; nothing else.
  ['rejected', 'invoice.preAuthorize', 'receiver', 'approved'],
  ['rejected', 'invoice.transferToFactoring', 'emitter', 'factoring'],
  ['rejected', 'invoice.cancelAtSat', 'sat', 'disabled'],
];

// One row per state × event: what each actor gets, so a failure shows the whole row at once.
const TABLE = STATES.flatMap((state) =>
  EVENT_TYPES.map((type) => ({
    state,
    type,
    expected: Object.fromEntries(
      (Object.keys(ACTORS) as ActorName[]).map((actor) => {
        const allowed = ALLOWED.find(([s, e, a]) => s === state && e === type && a === actor);
        return [actor, allowed ? allowed[3] : 'refused'];
      }),
    ),
  })),
);

describe('invoiceLifecycleMachine: state × event × actor', () => {
  it('the table covers every state of the machine and every status code', () => {
    expect(Object.keys(invoiceLifecycleMachine.root.states).sort()).toEqual([...STATES].sort());
    for (const state of STATES) expect(STATE_BY_STATUS[STATUS_BY_STATE[state]!]).toBe(state);
    expect(STATUS_BY_STATE.rejected).toBe(InvoiceStatus.REJECTED);
    expect(TABLE).toHaveLength(STATES.length * EVENT_TYPES.length);
    const allowedCells = TABLE.flatMap((row) => Object.values(row.expected)).filter((to) => to !== 'refused');
    expect(allowedCells).toHaveLength(ALLOWED.length);
  });

  it.each(TABLE)('$state + $type', ({ state, type, expected }) => {
    const actual = Object.fromEntries(
      (Object.keys(ACTORS) as ActorName[]).map((actor) => [
        actor,
        outcome(state, eventOf(type, ACTORS[actor])),
      ]),
    );
    expect(actual).toEqual(expected);
  });
});

describe('invoiceLifecycleMachine: the 150-day payment date (spec §5)', () => {
  const ROWS: [StateName, 'invoice.authorize' | 'invoice.preAuthorize'][] = [
    ['pending', 'invoice.authorize'],
    ['available', 'invoice.preAuthorize'],
    ['rejected', 'invoice.preAuthorize'],
  ];

  it.each(ROWS)('%s + %s: day 150 is allowed, day 151 is refused', (state, type) => {
    expect(outcome(state, eventOf(type, ACTORS.receiver, DAY_150))).toBe('approved');
    expect(outcome(state, eventOf(type, ACTORS.receiver, DAY_151))).toBe('refused');
  });

  it('counts calendar days across a leap February (2028-01-01: day 150 is 2028-05-30)', () => {
    const leap = { ...CONTEXT, dateOfEmission: '2028-01-01' };
    const authorize = (paymentDate: string) => eventOf('invoice.authorize', ACTORS.receiver, paymentDate);
    expect(outcome('pending', authorize('2028-05-30'), leap)).toBe('approved');
    expect(outcome('pending', authorize('2028-05-31'), leap)).toBe('refused');
  });

  it.each(['', '2026-02-30', '15/02/2026'])('refuses a missing or impossible date %j', (paymentDate) => {
    expect(outcome('pending', eventOf('invoice.authorize', ACTORS.receiver, paymentDate))).toBe('refused');
    expect(outcome('available', eventOf('invoice.preAuthorize', ACTORS.receiver, paymentDate))).toBe(
      'refused',
    );
  });

  it('a receiver without a SAT link is refused even with a date inside the limit', () => {
    expect(outcome('pending', eventOf('invoice.authorize', ACTORS.receiverWithoutSatLink, DAY_150))).toBe(
      'refused',
    );
  });
});

describe('invoiceLifecycleMachine: an actor without an authorized SAT link', () => {
  it.each([
    ['available', 'invoice.requestAuthorization', 'emitterWithoutSatLink'],
    ['approved', 'invoice.approveAdvance', 'emitterWithoutSatLink'],
    ['available', 'invoice.transferToFactoring', 'emitterWithoutSatLink'],
    ['rejected', 'invoice.transferToFactoring', 'emitterWithoutSatLink'],
    ['available', 'invoice.preAuthorize', 'receiverWithoutSatLink'],
    ['pending', 'invoice.authorize', 'receiverWithoutSatLink'],
    ['pending', 'invoice.reject', 'receiverWithoutSatLink'],
    ['rejected', 'invoice.preAuthorize', 'receiverWithoutSatLink'],
  ] as [StateName, InvoiceLifecycleEventType, ActorName][])(
    '%s + %s by %s is refused, and allowed once the link is authorized',
    (state, type, actor) => {
      expect(outcome(state, eventOf(type, ACTORS[actor]))).toBe('refused');
      expect(outcome(state, eventOf(type, { ...ACTORS[actor], satAuthorized: true }))).not.toBe('refused');
    },
  );
});

describe('invoiceLifecycleMachine: what REJECTED may become (decision 0003)', () => {
  it('the provider may not request authorization again', () => {
    expect(outcome('rejected', eventOf('invoice.requestAuthorization', ACTORS.emitter))).toBe('refused');
  });

  it('the buyer may pre-authorize it later with a payment date: REJECTED → APPROVED', () => {
    const snapshot = snapshotIn('rejected');
    const [next] = transition(
      invoiceLifecycleMachine,
      snapshot,
      eventOf('invoice.preAuthorize', ACTORS.receiver),
    );
    expect(STATUS_BY_STATE[String(next.value)]).toBe(InvoiceStatus.APPROVED);
  });

  it('the buyer may not authorize or reject it again; only pre-authorization reopens it', () => {
    expect(outcome('rejected', eventOf('invoice.authorize', ACTORS.receiver))).toBe('refused');
    expect(outcome('rejected', eventOf('invoice.reject', ACTORS.receiver))).toBe('refused');
  });

  it('the provider may factor it and SAT may cancel it', () => {
    expect(outcome('rejected', eventOf('invoice.transferToFactoring', ACTORS.emitter))).toBe('factoring');
    expect(outcome('rejected', eventOf('invoice.cancelAtSat', ACTORS.sat))).toBe('disabled');
  });
});

describe('invoiceLifecycleMachine: terminal states', () => {
  it.each(['paid', 'factoring', 'disabled'])('%s is final and takes no event from anyone', (state) => {
    const snapshot = snapshotIn(state);
    expect(snapshot.status).toBe('done');
    for (const type of EVENT_TYPES) {
      for (const actor of Object.values(ACTORS)) expect(snapshot.can(eventOf(type, actor))).toBe(false);
    }
  });
});

describe('invoiceLifecycleMachine: the buyer absorbs the advance cost (decision 0028)', () => {
  const FUNDED: InvoiceLifecycleContext = { ...CONTEXT, buyerFundsAdvance: true };
  const step = (state: StateName, event: InvoiceLifecycleEvent, context = CONTEXT) =>
    transition(invoiceLifecycleMachine, snapshotIn(state, context), event)[0];
  const accept = (type: 'invoice.authorize' | 'invoice.preAuthorize', paymentDate = PAYMENT_DATE) =>
    ({ type, actor: ACTORS.receiver, paymentDate, buyerFunds: true }) as const;

  it('accepting as payer authorizes like the buyer always does and records who pays', () => {
    for (const [state, type] of [
      ['available', 'invoice.preAuthorize'],
      ['pending', 'invoice.authorize'],
      ['rejected', 'invoice.preAuthorize'],
    ] as const) {
      const next = step(state, accept(type));
      expect([next.value, next.context.buyerFundsAdvance]).toEqual(['approved', true]);
    }
    // The 150-day rule still holds.
    expect(step('pending', accept('invoice.authorize', DAY_151)).value).toBe('pending');
  });

  it("'Pagar a Proveedores' takes only an Autorizada invoice whose cost the buyer absorbs, from its buyer", () => {
    const fund = (actor: LifecycleActor) => ({ type: 'invoice.fundAdvance', actor }) as const;
    expect(step('approved', fund(ACTORS.receiver), FUNDED).value).toBe('process');
    expect(step('approved', fund(ACTORS.receiver)).value).toBe('approved');
    for (const actor of [ACTORS.otherCorporate, ACTORS.receiverWithoutSatLink, ACTORS.emitter]) {
      expect(step('approved', fund(actor), FUNDED).value).toBe('approved');
    }
    for (const state of ['available', 'pending', 'rejected', 'process'] as const) {
      expect(step(state, fund(ACTORS.receiver), FUNDED).value).toBe(state);
    }
  });

  it("'Rechazar Cotización' withdraws only a quotation the buyer accepted as payer, clearing it", () => {
    const reject = (actor: LifecycleActor) => ({ type: 'invoice.rejectQuotation', actor }) as const;
    const next = step('approved', reject(ACTORS.receiver), FUNDED);
    expect([next.value, next.context.buyerFundsAdvance]).toEqual(['rejected', false]);
    expect(step('approved', reject(ACTORS.receiver)).value).toBe('approved');
    expect(step('approved', reject(ACTORS.otherCorporate), FUNDED).value).toBe('approved');
    for (const state of ['available', 'pending', 'process'] as const) {
      expect(step(state, reject(ACTORS.receiver), FUNDED).value).toBe(state);
    }
  });

  it('the provider may still advance it itself, and the flag stays for its zero-cost quote', () => {
    const next = step('approved', { type: 'invoice.approveAdvance', actor: ACTORS.emitter }, FUNDED);
    expect([next.value, next.context.buyerFundsAdvance]).toEqual(['process', true]);
  });
});
