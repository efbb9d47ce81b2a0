import { displayDateTime } from './calendar-date';
import { checkClabe } from './clabe';
import { DELINQUENCY_MESSAGES } from './delinquency';
import { efosListText, isBlockingSituation } from './efos';
import { type Centavos, formatMxn } from './money';
import { isSatLinkAuthorized, type SatStatusCode } from './sat-status';

// The control desk's checks (decision 0054): every advance En trámite is checked before money leaves.
// Each check is pass or fail with a Spanish reason the operator reads; the server computes the facts.

/** The states of an advance at the desk, as the API names them (the desk-item machine's states). */
export const DESK_STATES = ['queued', 'approved', 'rejected', 'in_batch', 'paid', 'returned'] as const;
export type DeskState = (typeof DESK_STATES)[number];

/** The checks, in the order the desk shows them. */
export const DESK_CHECK_IDS = [
  'sat_link',
  'cfdi_proof',
  'cfdi_vigente',
  'efos',
  'alliance',
  'programme',
  'clabe',
  'duplicate_uuid',
  'amount_bounds',
  'concentration',
] as const;

export type DeskCheckId = (typeof DESK_CHECK_IDS)[number];

export const DESK_CHECK_LABELS: Readonly<Record<DeskCheckId, string>> = {
  sat_link: 'Vinculación SAT',
  cfdi_proof: 'Sello y certificado del CFDI',
  cfdi_vigente: 'CFDI vigente en el SAT',
  efos: 'Emisor fuera de la lista 69-B',
  alliance: 'Alianza activa',
  programme: 'Programa de crédito',
  clabe: 'CLABE del proveedor',
  duplicate_uuid: 'Folio fiscal único',
  amount_bounds: 'Límites de la alianza',
  concentration: 'Concentración',
};

export interface DeskCheck {
  id: DeskCheckId;
  label: string;
  ok: boolean;
  reason: string;
}

/** What the server knows about one advance when it checks it. */
export interface DeskFacts {
  /** The emitter's SAT link status (companies.sat_status). */
  satStatus: SatStatusCode;
  /** When SAT reported the CFDI cancelled (invoices.sat_cancelled_at), or null. */
  satCancelledAt: string | null;
  /** Where the invoice's cfdi-proof machine stands (invoices.proof_state). */
  proofState: 'unverified' | 'sealChecked' | 'pending' | 'trusted' | 'refused';
  /** SAT's latest status answer for the CFDI (or its silence), or null when it was never asked. */
  satAnswer: { askedAt: string; answered: boolean; estado: string | null } | null;
  /** The issuer on SAT's 69-B list (null situation: not on it) and the list's date (null: no list loaded). */
  efos: { situation: string | null; listImportedAt: string | null };
  /** The receiver × emitter alliance, or null when there is none. */
  alliance: { isActive: boolean; maxAmount: Centavos | null; maxDays: number | null } | null;
  /** The buyer's programme and what this invoice holds reserved in it; null when the buyer has no programme. */
  programme: { state: string; reservedForInvoice: Centavos; frozenFor?: 'morosidad' | null } | null;
  /** companies.disbursement_clabe of the provider. */
  clabe: string | null;
  /** Another invoice with the same folio fiscal, or a payment already recorded for this one. */
  duplicate: 'none' | 'other_invoice' | 'already_paid';
  /** The invoice's MXN amount. */
  amount: Centavos;
  /** Calendar days from today to the payment date; null when the invoice has none. */
  daysToPayment: number | null;
  /**
   * The concentration caps (buyer, economic group, supplier) approving this advance would exceed, each as its
   * sentence from src/domain/concentration.ts capBreach; empty when none (decision 0069).
   */
  concentration: readonly string[];
}

/** The 'Concentración' check passing. */
export const CONCENTRATION_WITHIN_CAPS =
  'Ningún tope de concentración del comprador, su grupo o el proveedor se rebasa.';

function check(id: DeskCheckId, ok: boolean, reason: string): DeskCheck {
  return { id, label: DESK_CHECK_LABELS[id], ok, reason };
}

const mxn = formatMxn;

/**
 * The desk's checks for one advance, pass or fail with their reasons.
 * Example: a provider whose SAT link was revoked → sat_link fails with 'La vinculación SAT del proveedor ya no
 * está autorizada.'
 */
export function deskChecks(facts: DeskFacts): DeskCheck[] {
  const clabe = facts.clabe === null ? null : checkClabe(facts.clabe);
  const alliance = facts.alliance;
  const bounds: string[] = [];
  if (alliance?.maxAmount != null && facts.amount > alliance.maxAmount) {
    bounds.push(
      `El monto (${mxn(facts.amount)}) excede el máximo de la alianza (${mxn(alliance.maxAmount)}).`,
    );
  }
  if (alliance?.maxDays != null) {
    if (facts.daysToPayment === null) bounds.push('La factura no tiene fecha de pago.');
    else if (facts.daysToPayment > alliance.maxDays) {
      bounds.push(
        `Faltan ${facts.daysToPayment} días para el pago; la alianza permite hasta ${alliance.maxDays}.`,
      );
    }
  }
  return [
    isSatLinkAuthorized(facts.satStatus)
      ? check('sat_link', true, 'La vinculación SAT del proveedor está autorizada.')
      : check('sat_link', false, 'La vinculación SAT del proveedor ya no está autorizada.'),
    proofCheck(facts.proofState),
    satCheck(facts),
    efosCheck(facts.efos),
    alliance === null
      ? check('alliance', false, 'No hay alianza entre el comprador y el proveedor.')
      : alliance.isActive
        ? check('alliance', true, 'La alianza entre el comprador y el proveedor está activa.')
        : check('alliance', false, 'La alianza entre el comprador y el proveedor no está activa.'),
    facts.programme === null
      ? check('programme', false, 'El comprador no tiene un programa de crédito.')
      : facts.programme.state === 'congelado' && facts.programme.frozenFor === 'morosidad'
        ? check('programme', false, DELINQUENCY_MESSAGES.deskCheck)
        : facts.programme.state !== 'activo'
          ? check('programme', false, `El programa de crédito del comprador está ${facts.programme.state}.`)
          : facts.programme.reservedForInvoice <= 0
            ? check('programme', false, 'La factura no tiene una reserva en el programa de crédito.')
            : check(
                'programme',
                true,
                `La factura tiene reservados ${mxn(facts.programme.reservedForInvoice)} en el programa activo.`,
              ),
    clabe === null
      ? check('clabe', false, 'El proveedor no tiene CLABE de depósito.')
      : clabe.ok
        ? check('clabe', true, 'La CLABE del proveedor tiene un dígito verificador válido.')
        : check('clabe', false, `${clabe.reason}.`),
    facts.duplicate === 'none'
      ? check('duplicate_uuid', true, 'Ninguna otra factura ni pago tiene este folio fiscal.')
      : facts.duplicate === 'already_paid'
        ? check('duplicate_uuid', false, 'Ya hay un pago registrado para este folio fiscal.')
        : check('duplicate_uuid', false, 'Otra factura tiene el mismo folio fiscal.'),
    bounds.length === 0
      ? check('amount_bounds', true, 'El monto y el plazo están dentro de los límites de la alianza.')
      : check('amount_bounds', false, bounds.join(' ')),
    facts.concentration.length === 0
      ? check('concentration', true, CONCENTRATION_WITHIN_CAPS)
      : check('concentration', false, facts.concentration.join(' ')),
  ];
}

// The CFDI's seal was proven when it was imported (issue 30); before that change nobody checked it.
function proofCheck(state: DeskFacts['proofState']): DeskCheck {
  if (state === 'unverified') {
    return check(
      'cfdi_proof',
      false,
      'El CFDI no tiene sello verificado (sin verificar): no se financia hasta verificarlo o importarlo de nuevo.',
    );
  }
  if (state === 'refused')
    return check('cfdi_proof', false, 'La prueba de autenticidad del CFDI fue rechazada.');
  return check('cfdi_proof', true, 'El sello y el certificado del CFDI se verificaron al importarlo.');
}

// SAT's answer with when it was given: an old or missing answer is asked again before money moves.
export function satCheck(facts: Pick<DeskFacts, 'satCancelledAt' | 'satAnswer'>): DeskCheck {
  if (facts.satCancelledAt !== null)
    return check('cfdi_vigente', false, 'El SAT reporta el CFDI como cancelado.');
  const answer = facts.satAnswer;
  if (answer === null) return check('cfdi_vigente', false, 'Pendiente: aún no se ha consultado al SAT.');
  const when = displayDateTime(answer.askedAt);
  if (!answer.answered) return check('cfdi_vigente', false, `Pendiente (el SAT no respondió el ${when}).`);
  if (answer.estado === 'Vigente')
    return check('cfdi_vigente', true, `Vigente en el SAT (consultado el ${when}).`);
  if (answer.estado === 'Cancelado')
    return check('cfdi_vigente', false, `Cancelado en el SAT (consultado el ${when}).`);
  return check('cfdi_vigente', false, `El SAT no encontró el CFDI (consultado el ${when}).`);
}

function efosCheck(efos: DeskFacts['efos']): DeskCheck {
  if (efos.listImportedAt === null) return check('efos', true, 'Aún no se ha cargado la lista 69-B del SAT.');
  const list = efosListText(efos.listImportedAt);
  if (isBlockingSituation(efos.situation)) {
    return check('efos', false, `El emisor está en la lista 69-B como ${efos.situation} (${list}).`);
  }
  return check('efos', true, `El emisor no está en la lista 69-B como presunto ni definitivo (${list}).`);
}

/** The failing checks' reasons, for a refusal. */
export function failingReasons(checks: readonly DeskCheck[]): string[] {
  return checks.filter((item) => !item.ok).map((item) => `${item.label}: ${item.reason}`);
}

/**
 * The desk row's one tag for its checks (issue 33): how many pass, or which fail by name.
 * Example: '9 de 9 verificaciones pasan'; 'Fallan 2 de 9: CLABE del proveedor, Alianza activa'.
 */
export function checksSummary(checks: readonly Pick<DeskCheck, 'label' | 'ok'>[]): string {
  const failing = checks.filter((item) => !item.ok);
  if (failing.length === 0) return `${checks.length} de ${checks.length} verificaciones pasan`;
  const verb = failing.length === 1 ? 'Falla' : 'Fallan';
  return `${verb} ${failing.length} de ${checks.length}: ${failing.map((item) => item.label).join(', ')}`;
}
