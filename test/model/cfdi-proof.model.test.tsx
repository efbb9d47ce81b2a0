import { expect } from 'vitest';
import type { AnyMachineSnapshot, EventObject } from 'xstate';
import {
  CFDI_PROOF_REASONS,
  type CfdiProofContext,
  type CfdiProofEvent,
  type CfdiProofStateName,
  cfdiProofLabel,
  proofAllowsAdvance,
  proofAllowsQuote,
  proofTransition,
  type StoredCfdiProof,
} from '../../src/machines/cfdi-proof.machine';
import {
  CFDI_PROOF_EVENTS,
  cfdiProofModel,
  REFUSED_CFDI_PROOF_EVENTS,
  SEAL_REFUSAL_REASON,
} from './cfdi-proof.model';
import { defineModelTests } from './harness/define-model-tests';

// The CFDI proof's events are SAT's answers and the seal check: no HTTP caller sends them. Each event is applied
// to a stored proof through `proofTransition`, the call the importer, the desk, the SPEI batch and the
// cfdi-sat-check job move `invoices.proof_state` with (server/modules/sat/cfdi-proof.service.ts; their own
// behaviour is test/api/cfdi-authenticity.test.ts and control-desk.test.ts), and every state is asserted on that
// stored proof against the policy written out here (label, quoting, advancing, reason). At every state the
// answers the machine refuses are tried too: each must be refused in Spanish and change nothing.

interface Ctx {
  proof: StoredCfdiProof;
}

/** What each state means to the rest of Flujo, written out rather than read from the helpers under test. */
const EXPECTED: Record<CfdiProofStateName, { label: string; quote: boolean; advance: boolean }> = {
  received: { label: 'Recibido', quote: false, advance: false },
  unverified: { label: 'Sin verificar', quote: false, advance: false },
  sealChecked: { label: 'Verificando en el SAT', quote: true, advance: false },
  pending: { label: 'Pendiente: el SAT no respondió', quote: true, advance: false },
  trusted: { label: 'Confiable', quote: true, advance: true },
  refused: { label: 'Rechazado', quote: false, advance: false },
};

const REFUSAL_REASONS = [
  SEAL_REFUSAL_REASON,
  CFDI_PROOF_REASONS.cancelado,
  CFDI_PROOF_REASONS.noEncontrado,
  CFDI_PROOF_REASONS.efos('Presunto'),
  CFDI_PROOF_REASONS.efos('Definitivo'),
];

function assertState(ctx: Ctx, state: AnyMachineSnapshot): void {
  const node = String(state.value) as CfdiProofStateName;
  const context = state.context as CfdiProofContext;
  // The stored proof is the machine's own state and context after the same answers.
  expect(ctx.proof).toEqual({ state: node, reason: context.reason, satUnanswered: context.satUnanswered });
  expect(cfdiProofLabel(node)).toBe(EXPECTED[node].label);
  expect(proofAllowsQuote(node), `quote at ${node}`).toBe(EXPECTED[node].quote);
  expect(proofAllowsAdvance(node), `advance at ${node}`).toBe(EXPECTED[node].advance);
  if (node === 'refused') expect(REFUSAL_REASONS).toContain(ctx.proof.reason);
  else expect(ctx.proof.reason).toBeNull();
  // A refusal keeps the count of the queries SAT left unanswered before it; an answer clears it.
  if (node === 'pending') expect(ctx.proof.satUnanswered).toBeGreaterThan(0);
  else if (node !== 'refused') expect(ctx.proof.satUnanswered).toBe(0);

  const refused = [
    ...(CFDI_PROOF_EVENTS as readonly CfdiProofEvent[]).filter((event) => !state.can(event)),
    ...(REFUSED_CFDI_PROOF_EVENTS as readonly CfdiProofEvent[]),
  ];
  for (const event of refused) {
    expect(state.can(event), `the machine takes ${event.type} at ${node}`).toBe(false);
    const answer = proofTransition(ctx.proof, event);
    expect(answer.ok, `${event.type} at ${node}`).toBe(false);
    if (!answer.ok) {
      expect(answer.message).toMatch(
        event.type === 'seal.refused' && (node === 'received' || node === 'unverified')
          ? /^Indica el motivo/
          : /«[^»]+»/,
      );
    }
  }
}

async function execute(ctx: Ctx, modelEvent: EventObject): Promise<void> {
  const event = modelEvent as CfdiProofEvent;
  const answer = proofTransition(ctx.proof, event);
  if (!answer.ok) throw new Error(`${event.type} at ${ctx.proof.state}: ${answer.message}`);
  ctx.proof = answer.proof;
}

defineModelTests<Ctx>(cfdiProofModel, {
  setup: () => ({ proof: { state: 'received', reason: null, satUnanswered: 0 } }),
  render: () => {},
  states: Object.fromEntries(
    Object.keys(cfdiProofModel.machine.config.states ?? {}).map((name) => [
      `#cfdiProof.${name}`,
      async ({ ctx, state }: { ctx: Ctx; state: AnyMachineSnapshot }) => assertState(ctx, state),
    ]),
  ),
  events: Object.fromEntries(
    [...new Set(CFDI_PROOF_EVENTS.map((event) => event.type))].map((type) => [
      type,
      ({ ctx, event }: { ctx: Ctx; event: EventObject }) => execute(ctx, event),
    ]),
  ),
});
