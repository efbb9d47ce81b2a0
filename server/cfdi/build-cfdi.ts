import { createHash, createSign, type KeyObject } from 'node:crypto';
import { DOMParser, type Element, XMLSerializer } from '@xmldom/xmldom';
import {
  addMoney,
  convertToMxn,
  formatMoneyAmount,
  parseMoney,
  percentOf,
  subtractMoney,
} from '../../src/domain/money';
import { cfdiCadenaOriginal, tfdCadenaOriginal } from './cadena-original';
import { formatStatusTotal, sealTail } from './cfdi-expression';
import { type DemoAuthority, type SigningCredential, uuidFromDigest } from './demo-authority';
import { CFDI_40_NAMESPACE, PAGOS_20_NAMESPACE, TFD_NAMESPACE, XSI_NAMESPACE } from './namespaces';

/**
 * Builds genuinely signed CFDI 4.0 XML for demo data and tests: the issuer's demo CSD seals the cadena
 * original and the sandbox SAT of the demo authority stamps it (its folio fiscal and SelloSAT), so the
 * documents pass the same proof as real ones (server/cfdi/verify-cfdi.ts).
 */
export type CfdiBuildInput = {
  serie?: string;
  folio: string;
  /** Fecha, 'YYYY-MM-DDThh:mm:ss', local time where issued. */
  issuedAt: string;
  /** Postal code of issue (LugarExpedicion) is `issuer.zip`. */
  issuer: { rfc: string; name: string; taxRegime?: string; zip?: string };
  receiver: { rfc: string; name: string; zip?: string; cfdiUse?: string; taxRegime?: string };
  /** Decimal string with at most 2 decimals; written back with exactly 2. */
  subtotal: string;
  /** EUR stands for any foreign currency but the dollar (a fixture's; the demo world issues MXN and USD). */
  currency: 'MXN' | 'USD' | 'EUR';
  /** Pesos per unit of the currency; required for every currency but MXN. */
  exchangeRate?: string;
  paymentMethod: 'PPD' | 'PUE';
  description: string;
  /** FechaTimbrado; one minute after Fecha when absent. */
  stampedAt?: string;
  /** RfcProvCertif of the PAC. */
  pacRfc?: string;
};

export type CfdiAmounts = { subtotal: string; tax: string; total: string };

const CFDI_SCHEMA_LOCATION = `${CFDI_40_NAMESPACE} http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd`;
const TFD_SCHEMA_LOCATION = `${TFD_NAMESPACE} http://www.sat.gob.mx/sitio_internet/cfd/TimbreFiscalDigital/TimbreFiscalDigitalv11.xsd`;

// NOTE: catalogue keys from SAT catCFDI (Anexo 20): 002 = IVA, 02 = "Sí objeto de impuesto",
// 01 = "No aplica" (Exportacion), I = Ingreso, E48 = "Unidad de servicio", 84111506 = "Servicios de facturación".
const IVA_TAX = '002';
const IVA_RATE_PERCENT = 16;
const IVA_RATE_TEXT = '0.160000';
const TAXABLE_OBJECT = '02';
const NOT_EXPORT = '01';
const INCOME_VOUCHER = 'I';
const SERVICE_UNIT = 'E48';
const INVOICING_SERVICES = '84111506';
const DEFAULT_CFDI_USE = 'G03'; // Gastos en general
const DEFAULT_ZIP = '06000'; // Centro, Ciudad de México
// NOTE: c_RegimenFiscal: 601 General de Ley Personas Morales, 612 Personas Físicas con Actividades Empresariales.
const MORAL_TAX_REGIME = '601';
const PHYSICAL_TAX_REGIME = '612';
const MORAL_RFC_LENGTH = 12;
// NOTE: Anexo 20 guía de llenado: MetodoPago PPD requires FormaPago 99 "Por definir"; 03 = transferencia.
const PAYMENT_FORM = { PPD: '99', PUE: '03' } as const;
// SAT's own RFC, which also stamps as PAC for its free invoicing service; public and well known.
const DEFAULT_PAC_RFC = 'SAT970701NN3';
const STAMP_DELAY_MS = 60_000;
const SEAL_ALGORITHM = 'RSA-SHA256';
/** Written where the seal and stamp go, then replaced by sealCfdiXml. */
const UNSEALED = 'SIN-SELLO';
const UNSTAMPED_UUID = '00000000-0000-4000-8000-000000000000';

const AMOUNT_INPUT = /^[0-9]{1,16}(\.[0-9]{1,2})?$/;
const EXCHANGE_RATE_INPUT = /^[0-9]{1,12}(\.[0-9]{1,6})?$/;
const DATE_TIME =
  /^(20[1-9][0-9])-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])$/;

/** RFC 4122 version-4-shaped UUID (upper case, as PACs write it) from sha256(seed); same seed, same UUID. */
export function deterministicUuid(seed: string): string {
  return uuidFromDigest(createHash('sha256').update(seed).digest());
}

/** SubTotal, IVA 16 % (rounded half-up to the centavo) and Total, in integer centavos so nothing drifts. */
export function computeCfdiAmounts(subtotal: string): CfdiAmounts {
  if (!AMOUNT_INPUT.test(subtotal)) throw new Error(`subtotal must have at most 2 decimals: "${subtotal}"`);
  // Money arithmetic lives in src/domain/money.ts only (one rounding rule for the whole product).
  const subtotalCentavos = parseMoney(subtotal);
  const tax = percentOf(subtotalCentavos, IVA_RATE_PERCENT);
  return {
    subtotal: formatMoneyAmount(subtotalCentavos),
    tax: formatMoneyAmount(tax),
    total: formatMoneyAmount(addMoney(subtotalCentavos, tax)),
  };
}

/**
 * Deterministic CFDI 4.0 XML sealed with the issuer's demo CSD and stamped by the demo SAT: the same input
 * and authority always give byte-identical output. Throws on invalid input.
 */
export function buildCfdiXml(input: CfdiBuildInput, authority: DemoAuthority): string {
  assertDateTime(input.issuedAt, 'issuedAt');
  const stampedAt = input.stampedAt ?? addMilliseconds(input.issuedAt, STAMP_DELAY_MS);
  assertDateTime(stampedAt, 'stampedAt');
  if (input.currency !== 'MXN' && input.exchangeRate === undefined)
    throw new Error(`${input.currency} needs exchangeRate`);
  if (input.currency === 'MXN' && input.exchangeRate !== undefined)
    throw new Error('MXN takes no exchangeRate');
  if (input.exchangeRate !== undefined && !EXCHANGE_RATE_INPUT.test(input.exchangeRate)) {
    throw new Error(`invalid exchangeRate "${input.exchangeRate}"`);
  }

  const amounts = computeCfdiAmounts(input.subtotal);
  const credential = authority.csdFor(input.issuer.rfc, input.issuer.name);
  const transfer = {
    Base: amounts.subtotal,
    Impuesto: IVA_TAX,
    TipoFactor: 'Tasa',
    TasaOCuota: IVA_RATE_TEXT,
    Importe: amounts.tax,
  };

  const comprobante = attributes({
    'xmlns:cfdi': CFDI_40_NAMESPACE,
    'xmlns:xsi': XSI_NAMESPACE,
    'xsi:schemaLocation': CFDI_SCHEMA_LOCATION,
    Version: '4.0',
    Serie: input.serie,
    Folio: input.folio,
    Fecha: input.issuedAt,
    Sello: UNSEALED,
    FormaPago: PAYMENT_FORM[input.paymentMethod],
    NoCertificado: credential.number,
    Certificado: credential.certificateBase64,
    SubTotal: amounts.subtotal,
    Moneda: input.currency,
    TipoCambio: input.exchangeRate,
    Total: amounts.total,
    TipoDeComprobante: INCOME_VOUCHER,
    Exportacion: NOT_EXPORT,
    MetodoPago: input.paymentMethod,
    LugarExpedicion: input.issuer.zip ?? DEFAULT_ZIP,
  });
  const issuer = attributes({
    Rfc: input.issuer.rfc,
    Nombre: input.issuer.name,
    RegimenFiscal: input.issuer.taxRegime ?? defaultTaxRegime(input.issuer.rfc),
  });
  const receiver = attributes({
    Rfc: input.receiver.rfc,
    Nombre: input.receiver.name,
    DomicilioFiscalReceptor: input.receiver.zip ?? DEFAULT_ZIP,
    RegimenFiscalReceptor: input.receiver.taxRegime ?? defaultTaxRegime(input.receiver.rfc),
    UsoCFDI: input.receiver.cfdiUse ?? DEFAULT_CFDI_USE,
  });
  const concept = attributes({
    ClaveProdServ: INVOICING_SERVICES,
    Cantidad: '1',
    ClaveUnidad: SERVICE_UNIT,
    Descripcion: input.description,
    ValorUnitario: amounts.subtotal,
    Importe: amounts.subtotal,
    ObjetoImp: TAXABLE_OBJECT,
  });
  const stamp = attributes({
    'xmlns:tfd': TFD_NAMESPACE,
    'xsi:schemaLocation': TFD_SCHEMA_LOCATION,
    Version: '1.1',
    UUID: UNSTAMPED_UUID,
    FechaTimbrado: stampedAt,
    RfcProvCertif: input.pacRfc ?? DEFAULT_PAC_RFC,
    SelloCFD: UNSEALED,
    NoCertificadoSAT: authority.stamping.number,
    SelloSAT: UNSEALED,
  });

  const unsealed = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<cfdi:Comprobante${comprobante}>`,
    `  <cfdi:Emisor${issuer}/>`,
    `  <cfdi:Receptor${receiver}/>`,
    '  <cfdi:Conceptos>',
    `    <cfdi:Concepto${concept}>`,
    '      <cfdi:Impuestos>',
    '        <cfdi:Traslados>',
    `          <cfdi:Traslado${attributes(transfer)}/>`,
    '        </cfdi:Traslados>',
    '      </cfdi:Impuestos>',
    '    </cfdi:Concepto>',
    '  </cfdi:Conceptos>',
    `  <cfdi:Impuestos${attributes({ TotalImpuestosTrasladados: amounts.tax })}>`,
    '    <cfdi:Traslados>',
    `      <cfdi:Traslado${attributes(transfer)}/>`,
    '    </cfdi:Traslados>',
    '  </cfdi:Impuestos>',
    '  <cfdi:Complemento>',
    `    <tfd:TimbreFiscalDigital${stamp}/>`,
    '  </cfdi:Complemento>',
    '</cfdi:Comprobante>',
  ].join('\n');
  return sealCfdiXml(unsealed, credential, authority);
}

/** A payment CFDI (REP, type P) for demo data and tests: who paid which invoices, one pago20:Pago. */
export type PaymentCfdiBuildInput = {
  serie?: string;
  folio: string;
  issuedAt: string;
  issuer: { rfc: string; name: string; taxRegime?: string; zip?: string };
  receiver: { rfc: string; name: string; zip?: string; taxRegime?: string };
  /** FechaPago, 'YYYY-MM-DDThh:mm:ss'. */
  paidAt: string;
  /** MonedaP; the related invoices are in the same currency here (EquivalenciaDR 1). */
  currency: 'MXN' | 'USD';
  exchangeRate?: string;
  documents: {
    uuid: string;
    serie?: string;
    folio?: string;
    installment?: number;
    /** ImpSaldoAnt; ImpPagado is `paid`; ImpSaldoInsoluto is the difference. 2 decimals at most. */
    previousBalance: string;
    paid: string;
  }[];
  stampedAt?: string;
};

const PAGOS_SCHEMA_LOCATION = `${PAGOS_20_NAMESPACE} http://www.sat.gob.mx/sitio_internet/cfd/Pagos/Pagos20.xsd`;
// NOTE: Anexo 20 guía de llenado del CFDI con complemento para recepción de pagos 2.0: SubTotal and Total 0,
// Moneda XXX, one Concepto 84111506 / ACT / 'Pago' of value 0 and ObjetoImp 01, UsoCFDI CP01; FormaDePagoP 03
// (transferencia); ObjetoImpDR 01 (no objeto de impuesto), so no ImpuestosDR.
const PAYMENT_VOUCHER = 'P';
const PAYMENT_CFDI_USE = 'CP01';
const ACTIVITY_UNIT = 'ACT';
const NOT_TAXABLE = '01';

/** A genuinely sealed and demo-stamped CFDI 4.0 of type P with its Pagos 2.0 complement. Throws on bad input. */
export function buildPaymentCfdiXml(input: PaymentCfdiBuildInput, authority: DemoAuthority): string {
  assertDateTime(input.issuedAt, 'issuedAt');
  assertDateTime(input.paidAt, 'paidAt');
  const stampedAt = input.stampedAt ?? addMilliseconds(input.issuedAt, STAMP_DELAY_MS);
  if (input.documents.length === 0) throw new Error('a payment CFDI pays at least one document');
  const credential = authority.csdFor(input.issuer.rfc, input.issuer.name);
  const documents = input.documents.map((document) => {
    if (!AMOUNT_INPUT.test(document.previousBalance) || !AMOUNT_INPUT.test(document.paid))
      throw new Error('document amounts must have at most 2 decimals');
    const previous = parseMoney(document.previousBalance);
    const paid = parseMoney(document.paid);
    if (paid > previous) throw new Error('a document cannot be paid more than its balance');
    return attributes({
      IdDocumento: document.uuid,
      Serie: document.serie,
      Folio: document.folio,
      MonedaDR: input.currency,
      EquivalenciaDR: '1',
      NumParcialidad: String(document.installment ?? 1),
      ImpSaldoAnt: formatMoneyAmount(previous),
      ImpPagado: formatMoneyAmount(paid),
      ImpSaldoInsoluto: formatMoneyAmount(subtractMoney(previous, paid)),
      ObjetoImpDR: NOT_TAXABLE,
    });
  });
  const paidTotal = input.documents.reduce((sum, document) => addMoney(sum, parseMoney(document.paid)), 0);
  // NOTE: Pagos20.xsd Totales/MontoTotalPagos is in pesos.
  const paidMxn = input.exchangeRate === undefined ? paidTotal : convertToMxn(paidTotal, input.exchangeRate);

  const comprobante = attributes({
    'xmlns:cfdi': CFDI_40_NAMESPACE,
    'xmlns:xsi': XSI_NAMESPACE,
    'xmlns:pago20': PAGOS_20_NAMESPACE,
    'xsi:schemaLocation': `${CFDI_SCHEMA_LOCATION} ${PAGOS_SCHEMA_LOCATION}`,
    Version: '4.0',
    Serie: input.serie,
    Folio: input.folio,
    Fecha: input.issuedAt,
    Sello: UNSEALED,
    NoCertificado: credential.number,
    Certificado: credential.certificateBase64,
    SubTotal: '0',
    Moneda: 'XXX',
    Total: '0',
    TipoDeComprobante: PAYMENT_VOUCHER,
    Exportacion: NOT_EXPORT,
    LugarExpedicion: input.issuer.zip ?? DEFAULT_ZIP,
  });
  const issuer = attributes({
    Rfc: input.issuer.rfc,
    Nombre: input.issuer.name,
    RegimenFiscal: input.issuer.taxRegime ?? defaultTaxRegime(input.issuer.rfc),
  });
  const receiver = attributes({
    Rfc: input.receiver.rfc,
    Nombre: input.receiver.name,
    DomicilioFiscalReceptor: input.receiver.zip ?? DEFAULT_ZIP,
    RegimenFiscalReceptor: input.receiver.taxRegime ?? defaultTaxRegime(input.receiver.rfc),
    UsoCFDI: PAYMENT_CFDI_USE,
  });
  const concept = attributes({
    ClaveProdServ: INVOICING_SERVICES,
    Cantidad: '1',
    ClaveUnidad: ACTIVITY_UNIT,
    Descripcion: 'Pago',
    ValorUnitario: '0',
    Importe: '0',
    ObjetoImp: NOT_TAXABLE,
  });
  const payment = attributes({
    FechaPago: input.paidAt,
    FormaDePagoP: PAYMENT_FORM.PUE,
    MonedaP: input.currency,
    TipoCambioP: input.exchangeRate ?? '1',
    Monto: formatMoneyAmount(paidTotal),
  });
  const stamp = attributes({
    'xmlns:tfd': TFD_NAMESPACE,
    'xsi:schemaLocation': TFD_SCHEMA_LOCATION,
    Version: '1.1',
    UUID: UNSTAMPED_UUID,
    FechaTimbrado: stampedAt,
    RfcProvCertif: DEFAULT_PAC_RFC,
    SelloCFD: UNSEALED,
    NoCertificadoSAT: authority.stamping.number,
    SelloSAT: UNSEALED,
  });
  const unsealed = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    `<cfdi:Comprobante${comprobante}>`,
    `  <cfdi:Emisor${issuer}/>`,
    `  <cfdi:Receptor${receiver}/>`,
    '  <cfdi:Conceptos>',
    `    <cfdi:Concepto${concept}/>`,
    '  </cfdi:Conceptos>',
    '  <cfdi:Complemento>',
    '    <pago20:Pagos Version="2.0">',
    `      <pago20:Totales${attributes({ MontoTotalPagos: formatMoneyAmount(paidMxn) })}/>`,
    `      <pago20:Pago${payment}>`,
    ...documents.map((document) => `        <pago20:DoctoRelacionado${document}/>`),
    '      </pago20:Pago>',
    '    </pago20:Pagos>',
    `    <tfd:TimbreFiscalDigital${stamp}/>`,
    '  </cfdi:Complemento>',
    '</cfdi:Comprobante>',
  ].join('\n');
  return sealCfdiXml(unsealed, credential, authority);
}

/**
 * Seals a CFDI with `credential` (NoCertificado, Certificado, Sello over its cadena original) and stamps it
 * again as the demo SAT (UUID, SelloCFD, NoCertificadoSAT, SelloSAT). Tests use it to make documents that are
 * genuinely signed by the wrong certificate; the builder uses it for every document.
 */
export function sealCfdiXml(xml: string, credential: SigningCredential, authority: DemoAuthority): string {
  const document = new DOMParser().parseFromString(xml, 'text/xml');
  const root = document.documentElement;
  if (!root) throw new Error('not XML');
  root.setAttribute('NoCertificado', credential.number);
  root.setAttribute('Certificado', credential.certificateBase64);
  // Signs what a reader will parse back from the text written, not the in-memory tree.
  const written = new DOMParser().parseFromString(
    new XMLSerializer().serializeToString(document),
    'text/xml',
  );
  const seal = sign(cfdiCadenaOriginal(written), credential.privateKey);
  root.setAttribute('Sello', seal);

  const stamp = root.getElementsByTagNameNS(TFD_NAMESPACE, 'TimbreFiscalDigital')[0];
  if (!stamp) throw new Error('the CFDI has no TimbreFiscalDigital to stamp');
  const party = (name: string) =>
    (root.getElementsByTagNameNS(CFDI_40_NAMESPACE, name)[0] as Element | undefined)?.getAttribute('Rfc') ??
    '';
  stamp.setAttribute(
    'UUID',
    authority.stampUuid({
      re: party('Emisor'),
      rr: party('Receptor'),
      tt: formatStatusTotal(root.getAttribute('Total') ?? ''),
      fe: sealTail(seal),
    }),
  );
  stamp.setAttribute('SelloCFD', seal);
  stamp.setAttribute('NoCertificadoSAT', authority.stamping.number);
  stamp.setAttribute('SelloSAT', sign(tfdCadenaOriginal(stamp), authority.stamping.privateKey));
  return `${new XMLSerializer().serializeToString(document)}\n`;
}

function sign(cadena: string, privateKey: KeyObject): string {
  return createSign(SEAL_ALGORITHM).update(cadena, 'utf8').sign(privateKey, 'base64');
}

function defaultTaxRegime(rfc: string): string {
  return rfc.length === MORAL_RFC_LENGTH ? MORAL_TAX_REGIME : PHYSICAL_TAX_REGIME;
}

/** Serialises attributes in the given order, skipping undefined ones. */
function attributes(values: Record<string, string | undefined>): string {
  return Object.entries(values)
    .filter((entry): entry is [string, string] => entry[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(name, value)}"`)
    .join('');
}

const ATTRIBUTE_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
  // Character references survive attribute-value normalisation, which would turn raw ones into spaces.
  '\t': '&#x9;',
  '\n': '&#xA;',
  '\r': '&#xD;',
};

function escapeAttribute(name: string, value: string): string {
  for (const char of value) {
    const code = char.codePointAt(0) ?? 0;
    // XML 1.0 cannot carry other control characters at all, not even as references.
    if (code < 0x20 && char !== '\t' && char !== '\n' && char !== '\r') {
      throw new Error(`${name} contains a control character that XML 1.0 cannot represent`);
    }
  }
  // NOTE: cfdv40.xsd restricts free text to [^|]: the pipe separates fields in SAT's cadena original.
  if (value.includes('|')) throw new Error(`${name} cannot contain "|"`);
  return value.replace(/[&<>"'\t\n\r]/g, (char) => ATTRIBUTE_ESCAPES[char] ?? char);
}

function assertDateTime(value: string, name: string): void {
  if (!DATE_TIME.test(value)) throw new Error(`${name} must be 'YYYY-MM-DDThh:mm:ss' (t_FechaH): "${value}"`);
}

/** Adds time to a zone-less timestamp in UTC arithmetic, so the server's own time zone and DST never matter. */
function addMilliseconds(dateTime: string, milliseconds: number): string {
  const shifted = new Date(Date.parse(`${dateTime}Z`) + milliseconds);
  return shifted.toISOString().slice(0, 19);
}
