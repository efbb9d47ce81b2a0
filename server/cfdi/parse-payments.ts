import type { Element } from '@xmldom/xmldom';
import { CFDI_40_NAMESPACE, PAGOS_20_NAMESPACE } from './namespaces';
import { type Cfdi, parseCfdi } from './parse-cfdi';
import { attribute, childElements } from './safe-xml';

/**
 * The payment complement of a CFDI 4.0 of type P (Recibo Electrónico de Pago, complemento Pagos 2.0): what the
 * supplier tells SAT it was paid, and for which invoices. SAT's Pagos20.xsd is not among the files Flujo
 * keeps (server/cfdi/sat-xsd, ../shared/data/sat): the structure below is checked by hand from that schema's
 * required attributes and cardinalities, within the same hostile-input limits as any CFDI (safe-xml.ts).
 * Amounts stay the XML's exact decimal strings; callers convert.
 */
export type PaidDocument = {
  /** IdDocumento: the paid invoice's folio fiscal, upper-cased as parse-cfdi does. */
  uuid: string;
  serie: string | null;
  folio: string | null;
  currency: string;
  /** EquivalenciaDR: units of the document's currency per unit of the payment's. */
  equivalence: string | null;
  /** NumParcialidad: 1 for the first payment of the invoice. */
  installment: number;
  /** ImpSaldoAnt, ImpPagado, ImpSaldoInsoluto, in the document's currency. */
  previousBalance: string;
  paid: string;
  remainingBalance: string;
};

export type CfdiPayment = {
  /** FechaPago as written ('YYYY-MM-DDThh:mm:ss'). */
  paidAt: string;
  paymentForm: string;
  currency: string;
  exchangeRate: string | null;
  amount: string;
  documents: PaidDocument[];
};

export type PaymentComplement = { totalAmount: string; payments: CfdiPayment[] };

export type PaymentCfdiParseResult =
  | { ok: true; cfdi: Cfdi; root: Element; complement: PaymentComplement }
  | { ok: false; reason: string };

export const PAYMENT_VOUCHER = 'P';

/** Flujo's bounds (the XSD sets none): a REP pays at most this many invoices, in at most this many payments. */
export const MAX_PAYMENTS = 100;
export const MAX_PAID_DOCUMENTS = 1000;

export const paymentComplementReasons = {
  notPayment: 'El CFDI no es un complemento de pago: su TipoDeComprobante no es P (Pago).',
  missing: 'El CFDI de tipo P no contiene el complemento pago20:Pagos versión 2.0.',
  several: 'El CFDI contiene más de un complemento pago20:Pagos.',
  version: (version: string) => `El complemento de pago declara Version="${version}"; se espera 2.0.`,
  noPayment: 'El complemento de pago no contiene ningún pago20:Pago.',
  noDocument: (index: number) => `El pago ${index} no relaciona ningún documento (pago20:DoctoRelacionado).`,
  tooMany: `El complemento de pago excede el máximo de ${MAX_PAYMENTS} pagos o ${MAX_PAID_DOCUMENTS} documentos relacionados.`,
  missingAttributes: (names: readonly string[]) =>
    `Faltan atributos requeridos del complemento de pago: ${names.join(', ')}`,
  badAmount: (name: string, value: string) =>
    `El importe ${name} del complemento de pago no es válido: "${value}"`,
  badDate: (value: string) => `La FechaPago "${value}" no tiene el formato AAAA-MM-DDThh:mm:ss.`,
  badUuid: (value: string) => `El IdDocumento "${value}" no es un folio fiscal (UUID) válido.`,
  badInstallment: (value: string) => `El NumParcialidad "${value}" no es un número entero positivo.`,
  badCurrency: (value: string) =>
    `La moneda "${value}" del complemento de pago no es una clave ISO 4217 válida.`,
} as const;

// NOTE: required attributes of SAT's Pagos20.xsd (use="required").
const REQUIRED = {
  Pagos: ['Version'],
  Totales: ['MontoTotalPagos'],
  Pago: ['FechaPago', 'FormaDePagoP', 'MonedaP', 'Monto'],
  DoctoRelacionado: [
    'IdDocumento',
    'MonedaDR',
    'NumParcialidad',
    'ImpSaldoAnt',
    'ImpPagado',
    'ImpSaldoInsoluto',
    'ObjetoImpDR',
  ],
} as const;

// NOTE: Pagos20.xsd t_Importe and catCFDI c_Moneda shapes, the same as parse-cfdi.ts reads for the Comprobante.
const AMOUNT_PATTERN = /^[0-9]{1,18}(\.[0-9]{1,6})?$/;
const DATE_TIME_PATTERN =
  /^(20[1-9][0-9])-(0[1-9]|1[012])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;
const UUID_PATTERN = /^[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$/;
const CURRENCY_PATTERN = /^[A-Z]{3}$/;
const INSTALLMENT_PATTERN = /^[1-9][0-9]{0,5}$/;
const PAGOS_VERSION = '2.0';

class ComplementRejection extends Error {}

function reject(reason: string): never {
  throw new ComplementRejection(reason);
}

/** Parses a stamped CFDI 4.0 of type P with its Pagos 2.0 complement, or a Spanish reason. Never throws. */
export function parsePaymentCfdi(xml: string | Uint8Array, fileName?: string): PaymentCfdiParseResult {
  const parsed = parseCfdi(xml, fileName);
  if (!parsed.ok) return parsed;
  const complement = readPaymentComplement(parsed.root, parsed.cfdi);
  return complement.ok ? { ...parsed, complement: complement.complement } : complement;
}

/** The pago20:Pagos of an already parsed Comprobante (a direct child of cfdi:Complemento, never an Addenda's). */
export function readPaymentComplement(
  root: Element,
  cfdi: Pick<Cfdi, 'voucherType'>,
): { ok: true; complement: PaymentComplement } | { ok: false; reason: string } {
  try {
    if (cfdi.voucherType !== PAYMENT_VOUCHER) reject(paymentComplementReasons.notPayment);
    return { ok: true, complement: readPagos(root) };
  } catch (error) {
    if (error instanceof ComplementRejection) return { ok: false, reason: error.message };
    throw error;
  }
}

function readPagos(root: Element): PaymentComplement {
  const found = childElements(root, CFDI_40_NAMESPACE, 'Complemento').flatMap((complement) =>
    childElements(complement, PAGOS_20_NAMESPACE, 'Pagos'),
  );
  const [pagos] = found;
  if (!pagos) reject(paymentComplementReasons.missing);
  if (found.length > 1) reject(paymentComplementReasons.several);
  const version = attribute(pagos, 'Version');
  if (version !== null && version !== PAGOS_VERSION) reject(paymentComplementReasons.version(version));
  const totals = childElements(pagos, PAGOS_20_NAMESPACE, 'Totales');
  const [total] = totals;
  if (!total || totals.length > 1) reject(paymentComplementReasons.missingAttributes(['Totales']));
  const paymentNodes = childElements(pagos, PAGOS_20_NAMESPACE, 'Pago');
  if (paymentNodes.length === 0) reject(paymentComplementReasons.noPayment);
  if (paymentNodes.length > MAX_PAYMENTS) reject(paymentComplementReasons.tooMany);
  const documentNodes = paymentNodes.map((node) =>
    childElements(node, PAGOS_20_NAMESPACE, 'DoctoRelacionado'),
  );
  if (documentNodes.reduce((sum, nodes) => sum + nodes.length, 0) > MAX_PAID_DOCUMENTS)
    reject(paymentComplementReasons.tooMany);

  const missing = [
    ...missingOf(pagos, 'Pagos'),
    ...missingOf(total, 'Totales'),
    ...paymentNodes.flatMap((node, index) => [
      ...missingOf(node, 'Pago', index + 1),
      ...(documentNodes[index] ?? []).flatMap((doc, docIndex) =>
        missingOf(doc, 'DoctoRelacionado', index + 1, docIndex + 1),
      ),
    ]),
  ];
  if (missing.length > 0) reject(paymentComplementReasons.missingAttributes(missing));

  const payments = paymentNodes.map((node, index): CfdiPayment => {
    const documents = documentNodes[index] ?? [];
    if (documents.length === 0) reject(paymentComplementReasons.noDocument(index + 1));
    const paidAt = text(node, 'FechaPago');
    if (!DATE_TIME_PATTERN.test(paidAt)) reject(paymentComplementReasons.badDate(paidAt));
    const exchangeRate = attribute(node, 'TipoCambioP');
    if (exchangeRate !== null) amount(node, 'TipoCambioP');
    return {
      paidAt,
      paymentForm: text(node, 'FormaDePagoP'),
      currency: currency(node, 'MonedaP'),
      exchangeRate,
      amount: amount(node, 'Monto'),
      documents: documents.map(readDocument),
    };
  });
  return { totalAmount: amount(total, 'MontoTotalPagos'), payments };
}

function readDocument(node: Element): PaidDocument {
  const uuid = text(node, 'IdDocumento');
  if (!UUID_PATTERN.test(uuid)) reject(paymentComplementReasons.badUuid(uuid));
  const installment = text(node, 'NumParcialidad');
  if (!INSTALLMENT_PATTERN.test(installment)) reject(paymentComplementReasons.badInstallment(installment));
  const equivalence = attribute(node, 'EquivalenciaDR');
  if (equivalence !== null) amount(node, 'EquivalenciaDR');
  return {
    uuid: uuid.toUpperCase(),
    serie: attribute(node, 'Serie'),
    folio: attribute(node, 'Folio'),
    currency: currency(node, 'MonedaDR'),
    equivalence,
    installment: Number(installment),
    previousBalance: amount(node, 'ImpSaldoAnt'),
    paid: amount(node, 'ImpPagado'),
    remainingBalance: amount(node, 'ImpSaldoInsoluto'),
  };
}

function missingOf(element: Element, kind: keyof typeof REQUIRED, ...position: number[]): string[] {
  const where = position.length > 0 ? ` ${position.join('.')}` : '';
  return REQUIRED[kind]
    .filter((name) => attribute(element, name) === null)
    .map((name) => `${name} (${kind}${where})`);
}

/** Only read after missingOf passed: absence here is a programming error, still refused, never thrown. */
function text(element: Element, name: string): string {
  const value = attribute(element, name);
  if (value === null) reject(paymentComplementReasons.missingAttributes([name]));
  return value;
}

function amount(element: Element, name: string): string {
  const value = text(element, name);
  if (!AMOUNT_PATTERN.test(value)) reject(paymentComplementReasons.badAmount(name, value));
  return value;
}

function currency(element: Element, name: string): string {
  const value = text(element, name);
  if (!CURRENCY_PATTERN.test(value)) reject(paymentComplementReasons.badCurrency(value));
  return value;
}
