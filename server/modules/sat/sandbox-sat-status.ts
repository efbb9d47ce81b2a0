import type { StatusExpressionFields } from '../../cfdi/cfdi-expression';
import {
  parseStatusRequest,
  type SatDocumentState,
  type SatStatusAnswer,
  SOAP_FAULT,
  statusResponseEnvelope,
} from './sat-status-soap';

// Flujo's stand-in for SAT's ConsultaCFDIService in development and tests: the same SOAP in and out, with the
// document state decided by the caller (usually from the sandbox's own CFDI and cancellations).

const FOUND = 'S - Comprobante obtenido satisfactoriamente.';

/** Answers worded as SAT words them (phpcfdi/sat-estado-cfdi README and test files). */
export const SANDBOX_STATUS_ANSWERS: Readonly<Record<SatDocumentState, SatStatusAnswer>> = {
  Vigente: {
    codigoEstatus: FOUND,
    estado: 'Vigente',
    esCancelable: 'Cancelable con aceptación',
    estatusCancelacion: '',
    validacionEfos: '200',
  },
  Cancelado: {
    codigoEstatus: FOUND,
    estado: 'Cancelado',
    esCancelable: 'No cancelable',
    estatusCancelacion: 'Cancelado sin aceptación',
    validacionEfos: '200',
  },
  'No Encontrado': {
    codigoEstatus: 'N - 602: Comprobante no encontrado.',
    estado: 'No Encontrado',
    esCancelable: '',
    estatusCancelacion: '',
    validacionEfos: '',
  },
};

const SOAP_OK = 200;
/** NOTE: SOAP 1.1 §6.2: a fault travels with HTTP 500. */
const SOAP_FAULT_STATUS = 500;

/**
 * The HTTP answer to a `Consulta` request body: the SOAP response for the state `decide` picks, or a SOAP fault
 * (HTTP 500) when the request is not a well-formed consultation. Errors from `decide` propagate.
 */
export async function answerStatusRequest(
  body: string,
  decide: (fields: StatusExpressionFields) => Promise<SatDocumentState>,
): Promise<{ status: number; body: string }> {
  const request = parseStatusRequest(body);
  if (!request) return { status: SOAP_FAULT_STATUS, body: SOAP_FAULT };
  const state = await decide(request.fields);
  return { status: SOAP_OK, body: statusResponseEnvelope(SANDBOX_STATUS_ANSWERS[state]) };
}
