import { enums, type Infer } from 'superstruct';

/**
 * The financier's back-office roles (issue 19): analista prepares (onboarding, proposals, alliances), aprobador
 * decides (documents, activation, limits, the control desk), tesorería moves money (SPEI batches, bank results,
 * collections), auditor only reads. An operator may hold several.
 */
export const OPERATOR_ROLES = ['analista', 'aprobador', 'tesoreria', 'auditor'] as const;
export const OperatorRole = enums(OPERATOR_ROLES);
export type OperatorRole = Infer<typeof OperatorRole>;

export const OPERATOR_ROLE_LABELS: Record<OperatorRole, string> = {
  analista: 'Analista',
  aprobador: 'Aprobador',
  tesoreria: 'Tesorería',
  auditor: 'Auditor',
};

/** Who records the corporate's payment of an advanced invoice (POST operator/collections/): tesorería moves money. */
export const COLLECTION_ROLES: readonly OperatorRole[] = ['tesoreria'];

/** Who uploads the bank's statement of incoming SPEI (decision 0067). */
export const BANK_STATEMENT_ROLES: readonly OperatorRole[] = ['tesoreria', 'aprobador'];

/** Who assigns an unidentified payment, returns it or applies a saldo a favor (approval: aprobador only). */
export const UNIDENTIFIED_ASSIGN_ROLES: readonly OperatorRole[] = ['tesoreria', 'aprobador'];

/** Whether an operator holding `held` has one of `allowed`. */
export function holdsAnyRole(held: readonly OperatorRole[], allowed: readonly OperatorRole[]): boolean {
  return allowed.some((role) => held.includes(role));
}

/** Keeps the known roles of a stored list, in the canonical order. */
export function operatorRolesOf(values: readonly string[] | null | undefined): OperatorRole[] {
  const held = new Set(values ?? []);
  return OPERATOR_ROLES.filter((role) => held.has(role));
}

/** "Aprobador o Tesorería": the roles a refusal asks for, in Spanish. */
export function operatorRolesText(roles: readonly OperatorRole[]): string {
  const labels = roles.map((role) => OPERATOR_ROLE_LABELS[role]);
  if (labels.length <= 1) return labels.join('');
  return `${labels.slice(0, -1).join(', ')} o ${labels.at(-1)}`;
}
