import { array, boolean, enums, type Infer, nullable, optional, string, type } from 'superstruct';
import { EFOS_SITUATIONS, type EfosSituation } from '../efos';
import { RepStatus } from './payment-complements';

// GET /api/invoices/<id>/proof/ (issue 30): why Flujo trusts an invoice's CFDI, for its emitter and receiver.

export const PROOF_STATES = ['unverified', 'sealChecked', 'pending', 'trusted', 'refused'] as const;

/** What proved the seal at import: the certificate and who issued it. Null for invoices made before proofs. */
export const CfdiSealFacts = type({
  certificate_number: string(),
  holder_rfc: string(),
  holder_name: string(),
  issuer: string(),
  valid_from: string(),
  valid_until: string(),
  sat_seal_verified: boolean(),
});
export type CfdiSealFacts = Infer<typeof CfdiSealFacts>;

/** One question to SAT's status service and its answer (or its silence), as asked. */
export const SatAnswer = type({
  asked_at: string(),
  answered: boolean(),
  estado: nullable(string()),
  es_cancelable: nullable(string()),
  estatus_cancelacion: nullable(string()),
  validacion_efos: nullable(string()),
  /** The answer in one Spanish line: 'Verificado en el SAT el 28/11/2026 10:42: Vigente'. */
  summary: string(),
});
export type SatAnswer = Infer<typeof SatAnswer>;

export const CfdiProof = type({
  state: enums(PROOF_STATES),
  /** The cfdi-proof machine's Spanish label of the state ('Confiable', 'Sin verificar', …). */
  state_label: string(),
  seal: nullable(CfdiSealFacts),
  /** Every SAT answer, oldest first. */
  sat_answers: array(SatAnswer),
  /** Issue 34: once the buyer paid, whether the supplier's payment complement (REP) arrived; null before. */
  payment_complement: optional(nullable(RepStatus)),
});
export type CfdiProof = Infer<typeof CfdiProof>;

/** A company on SAT's 69-B list as the operator's views show it: its situation (null: not on it) and the list's date. */
export const EfosStanding = type({
  /** When the list in force was imported (null: no list loaded yet). */
  list_imported_at: nullable(string()),
  situation: nullable(enums(EFOS_SITUATIONS as readonly EfosSituation[])),
});
export type EfosStanding = Infer<typeof EfosStanding>;
