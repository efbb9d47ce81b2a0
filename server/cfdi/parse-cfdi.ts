import type { Element } from '@xmldom/xmldom';
import { checkRfc } from '../../src/domain/rfc';
import { CFDI_3X_NAMESPACE, CFDI_40_NAMESPACE, TFD_NAMESPACE } from './namespaces';
import { attribute, childElements, readXmlSafely } from './safe-xml';

export type VoucherType = 'I' | 'E' | 'T' | 'N' | 'P';
export type PaymentMethod = 'PUE' | 'PPD';

/** A stamped CFDI 4.0 as uploaded. Amounts stay as the exact decimal strings of the XML; callers convert. */
export type Cfdi = {
  /** Folio fiscal (tfd:TimbreFiscalDigital/@UUID), upper-cased so duplicates compare equal. */
  uuid: string;
  version: '4.0';
  serie: string | null;
  folio: string | null;
  /** Fecha as written: local time where issued, no offset. */
  issuedAt: string;
  /** FechaTimbrado as written: Mexico "Zona Centro" time, no offset. */
  stampedAt: string;
  subtotal: string;
  discount: string | null;
  total: string;
  currency: string;
  exchangeRate: string | null;
  voucherType: VoucherType;
  paymentMethod: PaymentMethod | null;
  paymentForm: string | null;
  issuer: { rfc: string; name: string; taxRegime: string };
  receiver: { rfc: string; name: string; cfdiUse: string };
  description: string;
  pacRfc: string;
  rfcWarnings: string[];
};

/** `root` is the parsed Comprobante, for the seal check (verify-cfdi.ts) that needs the document itself. */
export type CfdiParseResult = { ok: true; cfdi: Cfdi; root: Element } | { ok: false; reason: string };

export type CfdiBatchFile = { name: string; content: string | Uint8Array };
export type CfdiBatchResult = { accepted: Cfdi[]; rejected: { name: string; reason: string }[] };

export const cfdiRejectReasons = {
  cfdi33: 'El CFDI es versión 3.3; solo se aceptan CFDI 4.0',
  notCfdi40: `El XML no es un CFDI 4.0: el elemento raíz debe ser cfdi:Comprobante del espacio de nombres ${CFDI_40_NAMESPACE}`,
  notStamped: 'El CFDI no está timbrado (falta el Timbre Fiscal Digital)',
  duplicateInBatch: 'UUID duplicado en el lote',
} as const;

// NOTE: required attributes from SAT cfdv40.xsd and TimbreFiscalDigitalv11.xsd (use="required").
const REQUIRED_ATTRIBUTES = {
  Comprobante: [
    'Version',
    'Fecha',
    'Sello',
    'NoCertificado',
    'Certificado',
    'SubTotal',
    'Moneda',
    'Total',
    'TipoDeComprobante',
    'Exportacion',
    'LugarExpedicion',
  ],
  Emisor: ['Rfc', 'Nombre', 'RegimenFiscal'],
  Receptor: ['Rfc', 'Nombre', 'DomicilioFiscalReceptor', 'RegimenFiscalReceptor', 'UsoCFDI'],
  Concepto: [
    'ClaveProdServ',
    'Cantidad',
    'ClaveUnidad',
    'Descripcion',
    'ValorUnitario',
    'Importe',
    'ObjetoImp',
  ],
  TimbreFiscalDigital: [
    'Version',
    'UUID',
    'FechaTimbrado',
    'RfcProvCertif',
    'SelloCFD',
    'NoCertificadoSAT',
    'SelloSAT',
  ],
} as const;

// NOTE: patterns from SAT tdCFDI.xsd (t_Importe, t_FechaH) and TimbreFiscalDigitalv11.xsd (UUID).
const AMOUNT_PATTERN = /^[0-9]{1,18}(\.[0-9]{1,6})?$/;
const DATE_TIME_PATTERN =
  /^(20[1-9][0-9])-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;
const UUID_PATTERN = /^[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$/;
const CURRENCY_PATTERN = /^[A-Z]{3}$/;
// Flujo's own bound (the XSD sets none): up to 999,999.999999 pesos per unit fits numeric(18,6) with room.
const EXCHANGE_RATE_PATTERN = /^[0-9]{1,6}(\.[0-9]{1,6})?$/;
// NOTE: cfdv40.xsd, TipoCambio: required when Moneda is neither MXN nor XXX (XXX = payment CFDIs).
const CURRENCIES_WITHOUT_EXCHANGE_RATE = new Set(['MXN', 'XXX']);
const TFD_VERSION = '1.1';
const VOUCHER_TYPES: readonly VoucherType[] = ['I', 'E', 'T', 'N', 'P'];
const PAYMENT_METHODS: readonly PaymentMethod[] = ['PUE', 'PPD'];
/** Several Conceptos are summarised into one line for lists; the full text stays in the stored XML. */
const DESCRIPTION_MAX_LENGTH = 250;

class CfdiRejection extends Error {}

function reject(reason: string): never {
  throw new CfdiRejection(reason);
}

/** Parses one uploaded file into a stamped CFDI 4.0, or a Spanish reason to show next to the file. Never throws. */
export function parseCfdi(xml: string | Uint8Array, fileName?: string): CfdiParseResult {
  const read = readXmlSafely(xml, fileName);
  if (!read.ok) return read;
  try {
    return { ok: true, cfdi: readComprobante(read.root), root: read.root };
  } catch (error) {
    if (error instanceof CfdiRejection) return { ok: false, reason: error.message };
    throw error;
  }
}

/** Parses an upload batch; a UUID repeated inside the batch keeps its first file and rejects the rest. */
export function parseCfdiBatch(files: CfdiBatchFile[]): CfdiBatchResult {
  const accepted: Cfdi[] = [];
  const rejected: CfdiBatchResult['rejected'] = [];
  const seen = new Set<string>();
  for (const file of files) {
    const result = parseCfdi(file.content, file.name);
    if (!result.ok) {
      rejected.push({ name: file.name, reason: result.reason });
    } else if (seen.has(result.cfdi.uuid)) {
      rejected.push({ name: file.name, reason: cfdiRejectReasons.duplicateInBatch });
    } else {
      seen.add(result.cfdi.uuid);
      accepted.push(result.cfdi);
    }
  }
  return { accepted, rejected };
}

function readComprobante(root: Element): Cfdi {
  if (root.localName === 'Comprobante' && root.namespaceURI === CFDI_3X_NAMESPACE) {
    const oldVersion = attribute(root, 'Version') ?? attribute(root, 'version') ?? '3.3';
    reject(
      oldVersion === '3.3'
        ? cfdiRejectReasons.cfdi33
        : `El CFDI es versión ${oldVersion}; solo se aceptan CFDI 4.0`,
    );
  }
  if (root.localName !== 'Comprobante' || root.namespaceURI !== CFDI_40_NAMESPACE)
    reject(cfdiRejectReasons.notCfdi40);
  const version = attribute(root, 'Version');
  if (version !== null && version !== '4.0')
    reject(`El CFDI declara Version="${version}"; solo se aceptan CFDI 4.0`);

  const issuerNode = single(root, 'Emisor');
  const receiverNode = single(root, 'Receptor');
  const conceptNodes = childElements(single(root, 'Conceptos'), CFDI_40_NAMESPACE, 'Concepto');
  if (conceptNodes.length === 0) reject('El CFDI no tiene ningún cfdi:Concepto');

  const stamps = childElements(root, CFDI_40_NAMESPACE, 'Complemento').flatMap((complement) =>
    childElements(complement, TFD_NAMESPACE, 'TimbreFiscalDigital'),
  );
  const [stamp] = stamps;
  if (!stamp) reject(cfdiRejectReasons.notStamped);
  if (stamps.length > 1) reject('El CFDI contiene más de un Timbre Fiscal Digital');

  const missing = [
    ...missingAttributes(root, 'Comprobante'),
    ...missingAttributes(issuerNode, 'Emisor'),
    ...missingAttributes(receiverNode, 'Receptor'),
    ...conceptNodes.flatMap((concept, index) =>
      missingAttributes(concept, 'Concepto', conceptNodes.length > 1 ? ` ${index + 1}` : ''),
    ),
    ...missingAttributes(stamp, 'TimbreFiscalDigital'),
  ];
  if (missing.length > 0) reject(`Faltan atributos requeridos: ${missing.join(', ')}`);

  const tfdVersion = required(stamp, 'Version');
  if (tfdVersion !== TFD_VERSION) {
    reject(`La versión ${tfdVersion} del Timbre Fiscal Digital no es válida; se espera ${TFD_VERSION}`);
  }
  const uuid = required(stamp, 'UUID');
  if (!UUID_PATTERN.test(uuid)) reject(`El UUID del timbre no tiene un formato válido: "${uuid}"`);

  const issuedAt = dateTime(root, 'Fecha', 'La Fecha del CFDI');
  const stampedAt = dateTime(stamp, 'FechaTimbrado', 'La FechaTimbrado del timbre');

  const subtotal = amount(root, 'SubTotal');
  const discount = optionalAmount(root, 'Descuento');
  const total = amount(root, 'Total');

  const currency = required(root, 'Moneda');
  if (!CURRENCY_PATTERN.test(currency)) reject(`La Moneda "${currency}" no es una clave ISO 4217 válida`);
  const exchangeRate = attribute(root, 'TipoCambio');
  if (exchangeRate === null && !CURRENCIES_WITHOUT_EXCHANGE_RATE.has(currency)) {
    reject(`El CFDI en ${currency} no indica TipoCambio, obligatorio cuando la moneda no es MXN ni XXX`);
  }
  if (exchangeRate !== null && (!EXCHANGE_RATE_PATTERN.test(exchangeRate) || Number(exchangeRate) <= 0)) {
    reject(`El TipoCambio "${exchangeRate}" no es válido`);
  }

  const voucherType = oneOf(VOUCHER_TYPES, required(root, 'TipoDeComprobante'), 'TipoDeComprobante');
  const paymentMethodText = attribute(root, 'MetodoPago');
  const paymentMethod =
    paymentMethodText === null ? null : oneOf(PAYMENT_METHODS, paymentMethodText, 'MetodoPago');

  const rfcWarnings: string[] = [];
  const issuerRfc = validRfc(required(issuerNode, 'Rfc'), 'del emisor', rfcWarnings);
  const receiverRfc = validRfc(required(receiverNode, 'Rfc'), 'del receptor', rfcWarnings);

  return {
    uuid: uuid.toUpperCase(),
    version: '4.0',
    serie: attribute(root, 'Serie'),
    folio: attribute(root, 'Folio'),
    issuedAt,
    stampedAt,
    subtotal,
    discount,
    total,
    currency,
    exchangeRate,
    voucherType,
    paymentMethod,
    paymentForm: attribute(root, 'FormaPago'),
    issuer: {
      rfc: issuerRfc,
      name: required(issuerNode, 'Nombre'),
      taxRegime: required(issuerNode, 'RegimenFiscal'),
    },
    receiver: {
      rfc: receiverRfc,
      name: required(receiverNode, 'Nombre'),
      cfdiUse: required(receiverNode, 'UsoCFDI'),
    },
    description: describe(conceptNodes.map((concept) => required(concept, 'Descripcion'))),
    pacRfc: required(stamp, 'RfcProvCertif'),
    rfcWarnings,
  };
}

function single(parent: Element, localName: string): Element {
  const found = childElements(parent, CFDI_40_NAMESPACE, localName);
  const [first] = found;
  if (!first) reject(`Falta el nodo cfdi:${localName}`);
  if (found.length > 1) reject(`El CFDI tiene más de un nodo cfdi:${localName}`);
  return first;
}

function missingAttributes(element: Element, kind: keyof typeof REQUIRED_ATTRIBUTES, suffix = ''): string[] {
  return REQUIRED_ATTRIBUTES[kind]
    .filter((name) => attribute(element, name) === null)
    .map((name) => `${name} (${kind}${suffix})`);
}

/** Only called after missingAttributes passed, so absence here is a programming error, not bad input. */
function required(element: Element, name: string): string {
  const value = attribute(element, name);
  if (value === null) reject(`Falta el atributo requerido ${name} (${element.localName})`);
  return value;
}

function amount(element: Element, name: string): string {
  const value = required(element, name);
  if (!AMOUNT_PATTERN.test(value)) reject(`El importe ${name} no es válido: "${value}"`);
  return value;
}

function optionalAmount(element: Element, name: string): string | null {
  return attribute(element, name) === null ? null : amount(element, name);
}

function dateTime(element: Element, name: string, label: string): string {
  const value = required(element, name);
  const match = DATE_TIME_PATTERN.exec(value);
  if (!match) reject(`${label} no tiene el formato AAAA-MM-DDThh:mm:ss: "${value}"`);
  const [, year, month, day] = match.map(Number);
  // The pattern allows 31 for every month; the calendar does not (e.g. 2024-02-30).
  const calendar = new Date(Date.UTC(year ?? 0, (month ?? 1) - 1, day ?? 1));
  if (calendar.getUTCMonth() !== (month ?? 1) - 1) reject(`${label} no es una fecha que exista: "${value}"`);
  return value;
}

function oneOf<T extends string>(allowed: readonly T[], value: string, name: string): T {
  const found = allowed.find((candidate) => candidate === value);
  if (found === undefined) reject(`${name} "${value}" no es válido; se espera ${allowed.join(', ')}`);
  return found;
}

function validRfc(input: string, role: string, warnings: string[]): string {
  const check = checkRfc(input);
  if (!check.ok) reject(`RFC ${role} inválido: ${check.reason}`);
  if (check.generic) {
    warnings.push(`El RFC ${role} es genérico (${check.rfc}); no identifica a un contribuyente`);
  } else if (!check.checkDigitValid) {
    // NOTE: SAT has issued valid RFCs that fail the check digit (e.g. LME060822IH5); see domain research §2.3.
    warnings.push(
      `El dígito verificador del RFC ${role} (${check.rfc}) no coincide; revisa que esté bien escrito`,
    );
  }
  return check.rfc;
}

function describe(descriptions: string[]): string {
  const [first = ''] = descriptions;
  if (descriptions.length === 1) return first;
  const joined = descriptions.join('; ');
  return joined.length <= DESCRIPTION_MAX_LENGTH ? joined : `${joined.slice(0, DESCRIPTION_MAX_LENGTH - 1)}…`;
}
