import { displayDate } from './calendar-date';

// Issue 34 (decision 0070): the payment complement (REP: CFDI 4.0 of type P with the Pagos 2.0 complement)
// the supplier owes SAT once the buyer has paid an advanced invoice. One home for its rule and its words.

/** A collected invoice's REP, as the desk and the supplier's history show it. */
export type RepState = 'recibido' | 'pendiente';

export const REP_STATES: readonly RepState[] = ['recibido', 'pendiente'];

export const REP_STATE_LABELS: Readonly<Record<RepState, string>> = {
  recibido: 'REP recibido',
  pendiente: 'REP pendiente',
};

/**
 * Days between two reminders to a supplier whose REP has not arrived. NOTE: SAT wants the REP by the 5th day
 * of the month after the payment (RMF 2.7.1.32 / Anexo 20 guía de llenado de pagos); a weekly reminder lands
 * at least once inside any such window and is not noise.
 */
export const REP_REMINDER_INTERVAL_DAYS = 7;

/** 'REP recibido: 1A2B… del 20/04/2025', or 'REP pendiente', the line both screens print. */
export function repStatusText(status: {
  state: RepState;
  uuid: string | null;
  issued_at: string | null;
}): string {
  const label = REP_STATE_LABELS[status.state];
  if (status.state !== 'recibido' || !status.uuid || !status.issued_at) return label;
  return `${label}: ${status.uuid} del ${displayDate(status.issued_at.slice(0, 10))}`;
}

/** The Spanish refusals of a REP upload; verify-cfdi.ts's sealRefusals say why a seal is refused. */
export const PAYMENT_COMPLEMENT_MESSAGES = {
  refused: 'No se importó el complemento de pago.',
  notOwnIssuer: (rfc: string) =>
    `El emisor del complemento de pago (${rfc}) no es tu empresa: sube los complementos que tú emitiste.`,
  issuerUnknown: (rfc: string) => `El emisor ${rfc} no está registrado en Flujo.`,
  receiverNotCorporate: (rfc: string) => `El receptor ${rfc} no es un corporativo registrado en Flujo.`,
  unknownDocument: (uuid: string) => `Documento relacionado ${uuid}: no es una factura registrada en Flujo.`,
  otherCompanyDocument: (uuid: string, issuerRfc: string, receiverRfc: string) =>
    `Documento relacionado ${uuid}: la factura no fue emitida por ${issuerRfc} a ${receiverRfc}.`,
  conflictingCopy: (uuid: string) =>
    `Ya existe un complemento de pago con el folio fiscal ${uuid} y este archivo es distinto.`,
  satSilent: 'El SAT no respondió sobre el complemento de pago; no se importó. Vuelve a subirlo más tarde.',
  isPayment:
    'Es un complemento de pago (CFDI tipo P), no una factura: se importa como comprobante de pago de las facturas que relaciona.',
  fileRequired: 'Adjunta el XML del complemento de pago.',
  notXml: 'El archivo debe ser el XML del complemento de pago (CFDI 4.0 tipo P).',
} as const;

export const REP_REMINDER_SUBJECT = (label: string) =>
  `Falta el complemento de pago (REP) de la factura ${label}`;
