import { assign } from 'xstate';
import { callFailureOf, failureText } from '../domain/call-failure';
import {
  CORPORATE_DOCUMENT_KINDS,
  type CorporateDocumentKind,
  type DocumentDecision,
} from '../domain/corporate-file';
import {
  type BackOfficeFailure,
  type BackOfficeIntent,
  backOfficeFailureOf,
  createBackOfficeActionMachine,
} from './back-office-action';

/**
 * The corporates' back-office gestures (/operacion/corporativos/ and a corporate's file): what the operator does,
 * one intent at a time. Which gestures a corporate offers stays the `corporate-onboarding` machine's answer.
 */
export type CorporateAction =
  | { action: 'create' }
  | { action: 'upload'; kind: CorporateDocumentKind }
  | { action: 'decide'; documentId: number; kind: CorporateDocumentKind; status: DocumentDecision }
  | { action: 'activate' }
  | { action: 'reactivate' }
  | { action: 'reject' }
  | { action: 'suspend' }
  /** The corporate's economic group (decision 0069): set, changed or taken away. */
  | { action: 'group' };

const DECISIONS: readonly DocumentDecision[] = ['aprobado', 'rechazado', 'vencido'];

/**
 * An intent of these screens: the action's name carries what the dialog is about ('upload:poderes',
 * 'decide:rechazado:poderes'); `label` is what the dialog shows of it.
 */
export function corporateIntent(gesture: CorporateAction, label: string): BackOfficeIntent {
  switch (gesture.action) {
    case 'upload':
      return { action: `upload:${gesture.kind}`, id: null, label, input: null };
    case 'decide':
      return {
        action: `decide:${gesture.status}:${gesture.kind}`,
        id: gesture.documentId,
        label,
        input: null,
      };
    default:
      return { action: gesture.action, id: null, label, input: null };
  }
}

/** The gesture an intent stands for (null for one this screen never makes). */
export function corporateActionOf(intent: BackOfficeIntent | null): CorporateAction | null {
  if (!intent) return null;
  const [name, first, second] = intent.action.split(':');
  const kindOf = (value: string | undefined) => CORPORATE_DOCUMENT_KINDS.find((k) => k === value);
  if (name === 'upload') {
    const kind = kindOf(first);
    return kind ? { action: 'upload', kind } : null;
  }
  if (name === 'decide') {
    const status = DECISIONS.find((d) => d === first);
    const kind = kindOf(second);
    return status && kind && intent.id !== null
      ? { action: 'decide', documentId: intent.id, kind, status }
      : null;
  }
  if (
    name === 'create' ||
    name === 'activate' ||
    name === 'reactivate' ||
    name === 'reject' ||
    name === 'suspend' ||
    name === 'group'
  )
    return { action: name };
  return null;
}

/**
 * The corporates' screens have always shown the server's own detail, a server error's too ('Error interno del
 * servidor…'), and «Nuevo corporativo» reads the 409 that names the provider an RFC belongs to
 * ({confirm_promotion: [mensaje]}): the back office's failure, with those two read.
 */
export function corporateFailureOf(error: unknown): BackOfficeFailure {
  const failure = backOfficeFailureOf(error);
  const { status, body } = callFailureOf(error);
  const promotion = Array.isArray(body?.confirm_promotion) ? body.confirm_promotion : [];
  if (status === 409 && typeof promotion[0] === 'string') {
    return { message: promotion[0], fields: { confirm_promotion: [promotion[0]] } };
  }
  if (status === null || status < 500) return failure;
  const message = failureText(error, { read: () => ['detail'], otherwise: () => failure.message ?? '' });
  return { ...failure, message: message === '' ? null : message };
}

export const corporateActionsMachine = createBackOfficeActionMachine({
  id: 'corporate-actions',
  title: 'Corporativos: acciones del operador',
  description:
    'En /operacion/corporativos/ el operador da de alta un corporativo («Nuevo corporativo»; si el RFC es de un ' +
    'proveedor, confirma convertirlo). En el expediente de un corporativo sube o reemplaza documentos, los ' +
    'aprueba, rechaza o marca vencidos, y activa, rechaza (con motivo), suspende (con motivo) o reactiva el ' +
    'corporativo. El Analista o el Aprobador le asigna, cambia o quita su grupo económico (formulario). Qué acciones ofrece un corporativo lo decide la máquina corporate-onboarding.',
  gestures:
    '«Nuevo corporativo», «Subir», «Reemplazar», «Aprobar», «Rechazar», «Marcar vencido», «Activar corporativo», ' +
    '«Rechazar corporativo», «Suspender corporativo», «Reactivar corporativo», ' +
    '«Asignar grupo» / «Cambiar grupo»',
}).provide({
  actions: {
    keepFailure: assign({
      failure: (_, params: { error: unknown }) => corporateFailureOf(params.error),
    }),
  },
});
