import type { Element } from '@xmldom/xmldom';
import { parseStatusExpression, type StatusExpressionFields } from '../../cfdi/cfdi-expression';
import { XSI_NAMESPACE } from '../../cfdi/namespaces';
import { childElements, readXmlSafely } from '../../cfdi/safe-xml';

// SAT's public CFDI status service (ConsultaCFDIService), spoken as plain SOAP 1.1: SAT stopped publishing the
// WSDL in 2018 but the service still answers (research: mexico-receivables-domain §2.2). Pure: no I/O here.
// NOTE: endpoint, SOAPAction and namespaces from phpcfdi/sat-estado-cfdi `src/Contracts/Constants.php` and
// `tests/_files/soap-response.xml`; the expression from phpcfdi/cfdi-expresiones `Comprobante20170701.php`.

export const SAT_STATUS_PRODUCTION_URL =
  'https://consultaqr.facturaelectronica.sat.gob.mx/ConsultaCFDIService.svc';
export const SAT_STATUS_SOAP_ACTION = 'http://tempuri.org/IConsultaCFDIService/Consulta';
export const SOAP_ENVELOPE_NAMESPACE = 'http://schemas.xmlsoap.org/soap/envelope/';
/** The service's operation namespace: WCF's default, never renamed by SAT. */
export const SAT_STATUS_NAMESPACE = 'http://tempuri.org/';
/** The namespace of the ConsultaResult fields (a WCF data contract). */
export const SAT_STATUS_RESULT_NAMESPACE =
  'http://schemas.datacontract.org/2004/07/Sat.Cfdi.Negocio.ConsultaCfdi.Servicio';

export type SatDocumentState = 'Vigente' | 'Cancelado' | 'No Encontrado';

/** SAT's answer, field by field as SAT words it; `estado` is the only one Flujo decides on. */
export interface SatStatusAnswer {
  /** `S - Comprobante obtenido satisfactoriamente.` when SAT knows the CFDI; `N - 60x: …` otherwise. */
  codigoEstatus: string;
  estado: SatDocumentState;
  /** `No cancelable` | `Cancelable sin aceptación` | `Cancelable con aceptación`; empty when not found. */
  esCancelable: string;
  /** `En proceso` | `Cancelado con aceptación` | `Cancelado sin aceptación` | `Plazo vencido` | `Solicitud rechazada` | empty. */
  estatusCancelacion: string;
  /** `200` = the issuer is not on the EFOS list; `100` = it is; empty when SAT sent none. */
  validacionEfos: string;
}

/** SAT's answer (or what came back in its place) is not the SOAP response the service sends. */
export class SatStatusProtocolError extends Error {
  override readonly name = 'SatStatusProtocolError';
}

const SUCCESS_CODE_PREFIX = 'S - ';
const FAILURE_CODE_PREFIX = 'N - ';

function escapeXmlText(text: string): string {
  return text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

/**
 * The SOAP 1.1 request for `Consulta`. The expression goes in as escaped text (what phpcfdi's DOM serializer
 * writes; equivalent to a CDATA section for the server), so `&amp;` in an RFC travels as `&amp;amp;`.
 */
export function statusRequestEnvelope(expression: string): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<s:Envelope xmlns:s="${SOAP_ENVELOPE_NAMESPACE}"><s:Body>`,
    `<tem:Consulta xmlns:tem="${SAT_STATUS_NAMESPACE}">`,
    `<tem:expresionImpresa>${escapeXmlText(expression)}</tem:expresionImpresa>`,
    '</tem:Consulta></s:Body></s:Envelope>',
  ].join('');
}

/** The one child in a namespace, or null when it is missing or repeated. */
function onlyChild(parent: Element, namespaceUri: string, localName: string): Element | null {
  const found = childElements(parent, namespaceUri, localName);
  return found.length === 1 ? (found[0] ?? null) : null;
}

function soapBody(root: Element): Element | null {
  if (root.namespaceURI !== SOAP_ENVELOPE_NAMESPACE || root.localName !== 'Envelope') return null;
  return onlyChild(root, SOAP_ENVELOPE_NAMESPACE, 'Body');
}

/** For the sandbox: the expression a `Consulta` request carries, or null for anything else. */
export function parseStatusRequest(
  body: string,
): { expression: string; fields: StatusExpressionFields } | null {
  const read = readXmlSafely(body);
  if (!read.ok) return null;
  const soap = soapBody(read.root);
  const consulta = soap && onlyChild(soap, SAT_STATUS_NAMESPACE, 'Consulta');
  const carrier = consulta && onlyChild(consulta, SAT_STATUS_NAMESPACE, 'expresionImpresa');
  if (!carrier) return null;
  const expression = (carrier.textContent ?? '').trim();
  const fields = parseStatusExpression(expression);
  return fields ? { expression, fields } : null;
}

const RESULT_FIELDS = {
  codigoEstatus: 'CodigoEstatus',
  esCancelable: 'EsCancelable',
  estado: 'Estado',
  estatusCancelacion: 'EstatusCancelacion',
  validacionEfos: 'ValidacionEFOS',
} as const;

/**
 * The ConsultaResult as WCF writes it: fields in alphabetical order (DataContract's default), an empty one as
 * `i:nil="true"`, which is how SAT sends a missing EstatusCancelacion.
 */
export function statusResponseEnvelope(answer: SatStatusAnswer): string {
  const fields = Object.entries(RESULT_FIELDS).map(([key, name]) => {
    const value = answer[key as keyof SatStatusAnswer];
    return value === '' ? `<a:${name} i:nil="true"/>` : `<a:${name}>${escapeXmlText(value)}</a:${name}>`;
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<s:Envelope xmlns:s="${SOAP_ENVELOPE_NAMESPACE}"><s:Body>`,
    `<ConsultaResponse xmlns="${SAT_STATUS_NAMESPACE}">`,
    `<ConsultaResult xmlns:a="${SAT_STATUS_RESULT_NAMESPACE}" xmlns:i="${XSI_NAMESPACE}">`,
    ...fields,
    '</ConsultaResult></ConsultaResponse></s:Body></s:Envelope>',
  ].join('');
}

/** A SOAP 1.1 Client fault: what a SOAP server answers (with HTTP 500) to a request it cannot read. */
export function soapFaultEnvelope(reason: string): string {
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    `<s:Envelope xmlns:s="${SOAP_ENVELOPE_NAMESPACE}"><s:Body><s:Fault>`,
    '<faultcode>s:Client</faultcode>',
    `<faultstring xml:lang="es-MX">${escapeXmlText(reason)}</faultstring>`,
    '</s:Fault></s:Body></s:Envelope>',
  ].join('');
}

/** The sandbox's answer to a malformed `Consulta`. */
export const SOAP_FAULT = soapFaultEnvelope('La solicitud no es una consulta válida de CFDI.');

function fieldText(result: Element, name: string): string | null {
  const found = childElements(result, SAT_STATUS_RESULT_NAMESPACE, name);
  if (found.length > 1) throw new SatStatusProtocolError(`ConsultaResult repeats ${name}`);
  const element = found[0];
  if (!element) return null;
  if (element.getAttributeNS(XSI_NAMESPACE, 'nil') === 'true') return '';
  return (element.textContent ?? '').trim();
}

/**
 * The document state, failing closed: Vigente and Cancelado only with SAT's success code; `No Encontrado`
 * (or no Estado at all) with a failure code such as `N - 602: Comprobante no encontrado.` or
 * `N - 601: La expresión impresa proporcionada no es válida.`; anything else is not an answer.
 */
function documentState(codigoEstatus: string, estado: string | null): SatDocumentState {
  if (codigoEstatus.startsWith(SUCCESS_CODE_PREFIX) && (estado === 'Vigente' || estado === 'Cancelado')) {
    return estado;
  }
  if (codigoEstatus.startsWith(FAILURE_CODE_PREFIX) && (estado === 'No Encontrado' || !estado)) {
    return 'No Encontrado';
  }
  throw new SatStatusProtocolError(`Unexpected status: CodigoEstatus "${codigoEstatus}", Estado "${estado}"`);
}

/** SAT's `Consulta` response; throws SatStatusProtocolError on anything else (HTML, a fault, missing fields). */
export function parseStatusResponse(body: string): SatStatusAnswer {
  const read = readXmlSafely(body);
  if (!read.ok) throw new SatStatusProtocolError(`The status response is not XML: ${read.reason}`);
  const soap = soapBody(read.root);
  if (!soap) throw new SatStatusProtocolError('The status response is not a SOAP 1.1 envelope');
  const fault = onlyChild(soap, SOAP_ENVELOPE_NAMESPACE, 'Fault');
  if (fault) {
    // SOAP 1.1 fault children are unqualified.
    const faultString = Array.from(fault.children).find(
      (child) => child.localName === 'faultstring' && !child.namespaceURI,
    );
    const reason = faultString?.textContent ?? '';
    throw new SatStatusProtocolError(`SOAP fault: ${reason.trim()}`);
  }
  const response = onlyChild(soap, SAT_STATUS_NAMESPACE, 'ConsultaResponse');
  const result = response && onlyChild(response, SAT_STATUS_NAMESPACE, 'ConsultaResult');
  if (!result) throw new SatStatusProtocolError('The status response has no ConsultaResult');
  const codigoEstatus = fieldText(result, RESULT_FIELDS.codigoEstatus);
  if (!codigoEstatus) throw new SatStatusProtocolError('The status response has no CodigoEstatus');
  return {
    codigoEstatus,
    estado: documentState(codigoEstatus, fieldText(result, RESULT_FIELDS.estado)),
    esCancelable: fieldText(result, RESULT_FIELDS.esCancelable) ?? '',
    estatusCancelacion: fieldText(result, RESULT_FIELDS.estatusCancelacion) ?? '',
    validacionEfos: fieldText(result, RESULT_FIELDS.validacionEfos) ?? '',
  };
}
