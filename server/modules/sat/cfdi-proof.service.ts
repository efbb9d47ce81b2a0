import {
  type CfdiProofEvent,
  type CfdiProofStateName,
  proofTransition,
  type StoredCfdiProof,
} from '../../../src/machines/cfdi-proof.machine';
import { parseCfdi } from '../../cfdi/parse-cfdi';
import type { Db } from '../../db/database';
import type { ProofState } from '../../db/schema';
import { inTransaction } from '../../db/transaction';
import { askSatAll, type CfdiAuthenticity, type SatCheck } from './cfdi-authenticity';
import { recordSatCheck } from './sat-checks.repository';

// Where a CFDI's proof stands is the cfdi-proof machine's (src/machines/cfdi-proof.machine.ts): the importer,
// the desk and the SPEI batch move it with SAT's answers through here, never by writing a state themselves.

/** The machine's event for SAT's answer (or its silence). */
export function satEvent(check: SatCheck): CfdiProofEvent {
  if (!check.answered)
    return { type: 'sat.unavailable', cause: check.failure === 'timeout' ? 'timeout' : 'error' };
  switch (check.answer.estado) {
    case 'Vigente':
      return { type: 'sat.vigente' };
    case 'Cancelado':
      return { type: 'sat.cancelado' };
    default:
      return { type: 'sat.noEncontrado' };
  }
}

/** Applies events in order from a stored state; throws on an event the machine refuses (a bug, not input). */
export function proofAfter(state: CfdiProofStateName, events: readonly CfdiProofEvent[]): StoredCfdiProof {
  let proof: StoredCfdiProof = { state, reason: null, satUnanswered: 0 };
  for (const event of events) {
    const next = proofTransition(proof, event);
    if (!next.ok) throw new Error(`cfdi-proof: ${event.type} refused in ${proof.state}: ${next.message}`);
    proof = next.proof;
  }
  return proof;
}

/** A state an invoice can be stored in: 'received' lasts only while its file is being read. */
export function storable(state: CfdiProofStateName): ProofState {
  if (state === 'received')
    throw new Error('cfdi-proof: a received CFDI is not stored before its seal is checked');
  return state;
}

/** A freshly received CFDI whose seal verified, after SAT's answer: trusted, pending or refused (with why). */
export function proofAtImport(check: SatCheck): StoredCfdiProof {
  return proofAfter('received', [{ type: 'seal.verified' }, satEvent(check)]);
}

interface RecheckRow {
  id: number;
  cfdi_uuid: string;
  emitter_rfc: string;
  receiver_rfc: string;
  amount: string;
  cfdi_xml: string;
  proof_state: ProofState;
}

/**
 * Asks SAT again about these invoices (outside any transaction), keeps every answer and moves each proof
 * through the machine: a trusted proof is re-asked (sat.recheck) and becomes whatever SAT says now; a pending
 * one takes the answer; an unverified or refused one is left as it is (SAT cannot vouch for an unchecked seal).
 * Returns each invoice's proof state afterwards.
 */
export async function recheckAtSat(
  db: Db,
  authenticity: CfdiAuthenticity,
  invoiceIds: readonly number[],
): Promise<Map<number, ProofState>> {
  if (invoiceIds.length === 0) return new Map();
  const rows: RecheckRow[] = await db
    .selectFrom('invoices')
    .select(['id', 'cfdi_uuid', 'emitter_rfc', 'receiver_rfc', 'amount', 'cfdi_xml', 'proof_state'])
    .where('id', 'in', invoiceIds)
    .execute();
  const askable = rows.filter((row) => row.proof_state !== 'unverified' && row.proof_state !== 'refused');
  const checks = await askSatAll(
    authenticity,
    db,
    askable.map((row) => ({
      uuid: row.cfdi_uuid,
      issuerRfc: row.emitter_rfc,
      receiverRfc: row.receiver_rfc,
      total: row.amount,
      seal: sealOf(row.cfdi_xml),
    })),
  );
  const states = new Map(rows.map((row) => [row.id, row.proof_state] as const));
  await inTransaction(db, async (trx) => {
    for (const [index, row] of askable.entries()) {
      const check = checks[index] as SatCheck;
      const events: CfdiProofEvent[] =
        row.proof_state === 'trusted' ? [{ type: 'sat.recheck' }, satEvent(check)] : [satEvent(check)];
      const proof = storable(proofAfter(row.proof_state, events).state);
      await recordSatCheck(trx, row.id, check);
      await trx.updateTable('invoices').set({ proof_state: proof }).where('id', '=', row.id).execute();
      states.set(row.id, proof);
    }
  });
  return states;
}

/** The Comprobante's Sello as stored (the expression SAT is asked with carries its last characters). */
function sealOf(xml: string): string {
  const parsed = parseCfdi(xml);
  return parsed.ok ? (parsed.root.getAttribute('Sello') ?? '') : '';
}
