import { describe, expect, it } from 'vitest';
import {
  CFDI_PROOF_LABELS,
  CFDI_PROOF_REASONS,
  CFDI_PROOF_STATES,
  type CfdiProofEvent,
  type CfdiProofStateName,
  cfdiProofLabel,
  proofAllowsAdvance,
  proofAllowsQuote,
  proofNeedsRecheck,
  proofTransition,
  SAT_ANSWER_MAX_AGE_MS,
  type StoredCfdiProof,
} from './cfdi-proof.machine';

const at = (state: CfdiProofStateName, context: Partial<StoredCfdiProof> = {}): StoredCfdiProof => ({
  state,
  reason: null,
  satUnanswered: 0,
  ...context,
});

/** The state after each event in turn, from a fresh proof; throws on a refusal. */
function run(...events: CfdiProofEvent[]): StoredCfdiProof {
  return events.reduce((proof, event) => {
    const next = proofTransition(proof, event);
    if (!next.ok) throw new Error(`${event.type} at ${proof.state}: ${next.message}`);
    return next.proof;
  }, at('received'));
}

describe('cfdi-proof machine', () => {
  it('trusts a CFDI whose seal verifies and that SAT reports vigente', () => {
    expect(run({ type: 'seal.verified' })).toEqual(at('sealChecked'));
    expect(run({ type: 'seal.verified' }, { type: 'sat.vigente' })).toEqual(at('trusted'));
  });

  it('refuses a seal that does not verify, with its reason, and only with one', () => {
    expect(proofTransition(at('received'), { type: 'seal.refused', reason: '  ' })).toEqual({
      ok: false,
      message: 'Indica el motivo por el que el sello no se verifica.',
    });
    expect(run({ type: 'seal.refused', reason: ' El certificado no es un CSD. ' })).toEqual(
      at('refused', { reason: 'El certificado no es un CSD.' }),
    );
  });

  it('refuses what SAT reports cancelado or does not find, and an issuer on the 69-B list', () => {
    const checked = run({ type: 'seal.verified' });
    const answer = (event: CfdiProofEvent) => proofTransition(checked, event);
    expect(answer({ type: 'sat.cancelado' })).toEqual({
      ok: true,
      proof: at('refused', { reason: CFDI_PROOF_REASONS.cancelado }),
    });
    expect(answer({ type: 'sat.noEncontrado' })).toEqual({
      ok: true,
      proof: at('refused', { reason: 'El SAT no encontró el CFDI.' }),
    });
    expect(answer({ type: 'efos.listed', situation: 'Definitivo' })).toEqual({
      ok: true,
      proof: at('refused', {
        reason: 'El emisor está en la lista 69-B del SAT (operaciones inexistentes) como Definitivo.',
      }),
    });
  });

  it('waits while SAT does not answer, counting the unanswered queries, and decides on its answer', () => {
    const pending = run(
      { type: 'seal.verified' },
      { type: 'sat.unavailable', cause: 'timeout' },
      { type: 'sat.unavailable', cause: 'error' },
    );
    expect(pending).toEqual(at('pending', { satUnanswered: 2 }));
    expect(proofTransition(pending, { type: 'sat.vigente' })).toEqual({ ok: true, proof: at('trusted') });
    expect(proofTransition(pending, { type: 'sat.cancelado' })).toMatchObject({
      proof: { state: 'refused' },
    });
    expect(proofTransition(pending, { type: 'sat.noEncontrado' })).toMatchObject({
      proof: { state: 'refused' },
    });
    expect(proofTransition(pending, { type: 'efos.listed', situation: 'Presunto' })).toMatchObject({
      proof: { state: 'refused', reason: CFDI_PROOF_REASONS.efos('Presunto') },
    });
  });

  it('asks SAT again about a trusted CFDI, which may then be refused', () => {
    const trusted = run({ type: 'seal.verified' }, { type: 'sat.vigente' });
    expect(proofTransition(trusted, { type: 'sat.cancelado' })).toEqual({
      ok: false,
      message: 'El CFDI es «Confiable»: vuelve a consultar al SAT antes de registrar otra respuesta.',
    });
    const rechecked = proofTransition(trusted, { type: 'sat.recheck' });
    expect(rechecked).toEqual({ ok: true, proof: at('sealChecked') });
    expect(
      run(
        { type: 'seal.verified' },
        { type: 'sat.vigente' },
        { type: 'sat.recheck' },
        { type: 'sat.cancelado' },
      ),
    ).toMatchObject({ state: 'refused' });
  });

  it('keeps an invoice imported before seals were verified unverified until its seal is checked', () => {
    const legacy = run({ type: 'seal.missing' });
    expect(legacy).toEqual(at('unverified'));
    expect(proofTransition(legacy, { type: 'sat.vigente' })).toEqual({
      ok: false,
      message: 'No se espera respuesta del SAT: el CFDI está «Sin verificar».',
    });
    expect(proofTransition(legacy, { type: 'seal.verified' })).toEqual({
      ok: true,
      proof: at('sealChecked'),
    });
    expect(proofTransition(legacy, { type: 'seal.refused', reason: 'Sello inválido.' })).toMatchObject({
      proof: { state: 'refused', reason: 'Sello inválido.' },
    });
    expect(proofTransition(legacy, { type: 'seal.missing' })).toEqual({
      ok: false,
      message: 'Solo un CFDI recién recibido queda sin verificar; este está «Sin verificar».',
    });
  });

  it('a refusal is final', () => {
    const refused = run({ type: 'seal.verified' }, { type: 'sat.cancelado' });
    for (const event of [
      { type: 'seal.verified' },
      { type: 'sat.vigente' },
      { type: 'sat.recheck' },
    ] as const satisfies readonly CfdiProofEvent[]) {
      expect(proofTransition(refused, event)).toMatchObject({ ok: false });
    }
    expect(proofTransition(refused, { type: 'sat.recheck' })).toEqual({
      ok: false,
      message: 'Solo un CFDI confiable se vuelve a consultar; este está «Rechazado».',
    });
  });

  it('quotes once the seal is verified and SAT has not refused; moves money only when trusted', () => {
    expect(CFDI_PROOF_STATES.filter(proofAllowsQuote)).toEqual(['sealChecked', 'pending', 'trusted']);
    expect(CFDI_PROOF_STATES.filter(proofAllowsAdvance)).toEqual(['trusted']);
  });

  it('asks again about a trusted answer older than 24 hours', () => {
    const answeredAt = new Date('2026-12-01T10:00:00Z');
    const later = (ms: number) => new Date(answeredAt.getTime() + ms);
    expect(proofNeedsRecheck('trusted', answeredAt, later(SAT_ANSWER_MAX_AGE_MS))).toBe(false);
    expect(proofNeedsRecheck('trusted', answeredAt, later(SAT_ANSWER_MAX_AGE_MS + 1))).toBe(true);
    expect(proofNeedsRecheck('pending', answeredAt, later(2 * SAT_ANSWER_MAX_AGE_MS))).toBe(false);
  });

  it('names every state in Spanish', () => {
    expect(CFDI_PROOF_STATES.map(cfdiProofLabel)).toEqual([
      'Recibido',
      'Sin verificar',
      'Verificando en el SAT',
      'Pendiente: el SAT no respondió',
      'Confiable',
      'Rechazado',
    ]);
    expect(CFDI_PROOF_LABELS.trusted).toBe('Confiable');
  });
});
