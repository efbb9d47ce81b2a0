import type { IsoDate } from './calendar-date';

// A corporate buyer's onboarding and its KYB file (expediente), issue 19 and decision 0051. The kinds, the
// states, their Spanish labels and the one rule that says whether a file is ready live here; the server, the
// corporate-onboarding machine and the screens all read them.

/** The eight documents every corporate's file needs before it can be activated (NAFIN's checklist, research §1). */
export const CORPORATE_DOCUMENT_KINDS = [
  'constancia_situacion_fiscal',
  'acta_constitutiva',
  'poderes',
  'identificacion_representante',
  'comprobante_domicilio',
  'estado_cuenta',
  'beneficiario_controlador',
  'contrato_programa',
] as const;
export type CorporateDocumentKind = (typeof CORPORATE_DOCUMENT_KINDS)[number];

export const CORPORATE_DOCUMENT_LABELS: Readonly<Record<CorporateDocumentKind, string>> = {
  constancia_situacion_fiscal: 'Constancia de situación fiscal',
  acta_constitutiva: 'Acta constitutiva',
  poderes: 'Poderes',
  identificacion_representante: 'Identificación del representante legal',
  comprobante_domicilio: 'Comprobante de domicilio',
  estado_cuenta: 'Estado de cuenta (CLABE)',
  beneficiario_controlador: 'Beneficiario controlador',
  contrato_programa: 'Contrato del programa firmado',
};

/** The kind whose upload also carries the CLABE it shows (multipart field `clabe`, check digit verified). */
export const CLABE_DOCUMENT_KIND: CorporateDocumentKind = 'estado_cuenta';

export function isCorporateDocumentKind(value: unknown): value is CorporateDocumentKind {
  return typeof value === 'string' && (CORPORATE_DOCUMENT_KINDS as readonly string[]).includes(value);
}

export const DOCUMENT_STATUSES = ['pendiente', 'aprobado', 'rechazado', 'vencido'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
/** What a reviewer may decide (pendiente is where every upload starts). */
export const DOCUMENT_DECISIONS = ['aprobado', 'rechazado', 'vencido'] as const;
export type DocumentDecision = (typeof DOCUMENT_DECISIONS)[number];

export const DOCUMENT_STATUS_LABELS: Readonly<Record<DocumentStatus, string>> = {
  pendiente: 'Pendiente',
  aprobado: 'Aprobado',
  rechazado: 'Rechazado',
  vencido: 'Vencido',
};

export const ONBOARDING_STATES = ['borrador', 'en_revision', 'activo', 'rechazado', 'suspendido'] as const;
export type OnboardingState = (typeof ONBOARDING_STATES)[number];

export const ONBOARDING_STATE_LABELS: Readonly<Record<OnboardingState, string>> = {
  borrador: 'Borrador',
  en_revision: 'Expediente en revisión',
  activo: 'Activo',
  rechazado: 'Rechazado',
  suspendido: 'Suspendido',
};

/** Only PDFs go in the file. NOTE: every PDF starts with '%PDF-' (ISO 32000-1 §7.5.2). */
export const PDF_MAGIC = '%PDF-';
export const PDF_MEDIA_TYPE = 'application/pdf';
/** Largest document accepted: scanned deeds run to a few MB; 10 MB leaves room without inviting abuse. */
export const MAX_CORPORATE_DOCUMENT_BYTES = 10 * 1024 * 1024;

/** True when the bytes start with the PDF header (the content decides, not the name or the media type). */
export function looksLikePdf(data: Uint8Array): boolean {
  if (data.length < PDF_MAGIC.length) return false;
  for (let i = 0; i < PDF_MAGIC.length; i++) if (data[i] !== PDF_MAGIC.charCodeAt(i)) return false;
  return true;
}

/** A document as the file rule sees it. */
export interface FileDocument {
  kind: CorporateDocumentKind;
  status: DocumentStatus;
  expires_on: IsoDate | null;
}

/**
 * The status a document counts as on `today`: an aprobado whose expiry date has passed is vencido (the day of
 * expiry itself still counts). Example: effectiveDocumentStatus({status:'aprobado', expires_on:'2026-01-31'},
 * '2026-02-01') === 'vencido'.
 */
export function effectiveDocumentStatus(
  document: Pick<FileDocument, 'status' | 'expires_on'>,
  today: IsoDate,
): DocumentStatus {
  if (document.status === 'aprobado' && document.expires_on !== null && document.expires_on < today)
    return 'vencido';
  return document.status;
}

/** The kinds not (yet) aprobado on `today`, in checklist order; empty when the corporate may be activated. */
export function missingDocumentKinds(
  documents: readonly FileDocument[],
  today: IsoDate,
): CorporateDocumentKind[] {
  const approved = new Set(
    documents.filter((d) => effectiveDocumentStatus(d, today) === 'aprobado').map((d) => d.kind),
  );
  return CORPORATE_DOCUMENT_KINDS.filter((kind) => !approved.has(kind));
}

/** True when every kind has a current upload (whatever its review says): the file is complete for review. */
export function isFileComplete(documents: readonly Pick<FileDocument, 'kind'>[]): boolean {
  const kinds = new Set(documents.map((d) => d.kind));
  return CORPORATE_DOCUMENT_KINDS.every((kind) => kinds.has(kind));
}

/** Every Spanish message of the corporates' back office, written once. */
export const CORPORATE_MESSAGES = {
  alreadyCorporate: 'Esta empresa ya es un corporativo en Flujo.',
  emailTaken: 'Ya existe un usuario con este correo.',
  notFound: 'No existe ese corporativo.',
  documentNotFound: 'No existe ese documento en el expediente.',
  kindInvalid: 'Elige uno de los ocho documentos del expediente.',
  notPdf: 'El documento debe ser un PDF.',
  reasonRequired: 'Escribe el motivo del rechazo.',
  suspensionReasonRequired: 'Escribe el motivo de la suspensión.',
  expiryRequired: 'Indica la fecha de vencimiento.',
  dateInvalid: 'Debe ser una fecha válida (AAAA-MM-DD).',
  notActivatable: (missing: readonly CorporateDocumentKind[]) =>
    `Faltan documentos aprobados y vigentes: ${missing.map((k) => CORPORATE_DOCUMENT_LABELS[k]).join(', ')}.`,
  alreadyActive: 'El corporativo ya está activo.',
  rejectedFinal: 'El corporativo fue rechazado; su expediente ya no cambia.',
  decisionRecorded: 'Decisión registrada.',
  selfActivation: 'Otro aprobador debe activar este corporativo: quien lo dio de alta no puede activarlo.',
  notSuspendable: 'Solo se suspende un corporativo activo.',
  notReactivatable: 'Solo se reactiva un corporativo suspendido.',
  confirmPromotion: (providerName: string) =>
    `Este RFC es del proveedor «${providerName}». Confirma que quieres convertirlo en corporativo: sus usuarios ` +
    'actuales seguirán como proveedor y solo el usuario invitado entrará como corporativo.',
  // Why the corporate side is closed to a corporate's users in each state without access (the machine's tag
  // on the active state decides which states have it).
  accessPending:
    'Tu empresa aún no está activa como corporativo: Flujo revisa su expediente. Te avisaremos cuando se active.',
  accessRejected: 'El alta de tu empresa como corporativo fue rechazada; no tiene acceso como corporativo.',
  accessSuspended: 'Tu empresa está suspendida como corporativo; no tiene acceso como corporativo.',
} as const;

/** The Spanish reason the corporate side is closed in a state the onboarding machine gives no access. */
export function corporateAccessRefusal(state: OnboardingState): string {
  if (state === 'rechazado') return CORPORATE_MESSAGES.accessRejected;
  if (state === 'suspendido') return CORPORATE_MESSAGES.accessSuspended;
  return CORPORATE_MESSAGES.accessPending;
}
