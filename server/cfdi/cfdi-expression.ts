import { RFC_PATTERN } from '../../src/domain/rfc';

// SAT's "expresión impresa" of a CFDI 3.3/4.0 (the QR code's text), which its status service takes as input.
// One home for its format: the status client writes it, the sandbox SAT reads it, the demo stamp derives its
// folio fiscal from its fields. NOTE: phpcfdi/cfdi-expresiones `Comprobante20170701.php`, FormatTotal18x6.
/** The QR code's URL (Anexo 20, CFDI 3.3 and 4.0); the expression is this URL with its query. */
export const CFDI_QR_URL = 'https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx';

/** The five values of a CFDI 3.3/4.0 expression, decoded (an RFC's `&amp;` back to `&`). */
export interface StatusExpressionFields {
  /** Issuer RFC. */
  re: string;
  /** Receiver RFC. */
  rr: string;
  /** Total as written in the expression. */
  tt: string;
  /** UUID of the stamp (folio fiscal). */
  id: string;
  /** Last 8 characters of the Comprobante's Sello. */
  fe: string;
}

export interface CfdiStatusExpressionInput {
  uuid: string;
  issuerRfc: string;
  receiverRfc: string;
  /** Comprobante/@Total as written in the CFDI (a decimal string). */
  total: string;
  /** Comprobante/@Sello (base64). */
  seal: string;
}

const UUID_PATTERN = /^[a-fA-F0-9]{8}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{4}-[a-fA-F0-9]{12}$/;
const DECIMAL_PATTERN = /^([0-9]+)(?:\.([0-9]+))?$/;
/** NOTE: Anexo 20 gives Total at most 6 decimals; the expression keeps them (phpcfdi FormatTotal18x6). */
const TOTAL_DECIMALS = 6;
const SEAL_TAIL_LENGTH = 8;
const BASE64_TAIL = /^[A-Za-z0-9+/=]{8}$/;
/** What an expression's tt may look like: the formatted total, or a CFDI total written as is. */
const EXPRESSION_TOTAL = /^[0-9]{1,18}(\.[0-9]{1,6})?$/;
const EXPRESSION_KEYS = ['id', 're', 'rr', 'tt', 'fe'] as const;

/**
 * The total as the expression carries it: rounded half-up to 6 decimals, trailing zeros dropped, at least one
 * decimal kept ('1160.00' → '1160.0', '2010.01' → '2010.01', '0.1234565' → '0.123457').
 * NOTE: phpcfdi/cfdi-expresiones FormatTotal18x6 and its test vectors; done on the digits, not on a float.
 */
export function formatStatusTotal(total: string): string {
  const match = DECIMAL_PATTERN.exec(total.trim());
  if (!match) throw new RangeError(`Not a decimal total: "${total}"`);
  const [, integerDigits = '', fractionDigits = ''] = match;
  const kept = fractionDigits.slice(0, TOTAL_DECIMALS).padEnd(TOTAL_DECIMALS, '0');
  const roundUp = (fractionDigits.charAt(TOTAL_DECIMALS) || '0') >= '5';
  const scaled = BigInt(`${integerDigits}${kept}`) + (roundUp ? 1n : 0n);
  const digits = scaled.toString().padStart(TOTAL_DECIMALS + 1, '0');
  const fraction = digits.slice(-TOTAL_DECIMALS).replace(/0+$/, '') || '0';
  return `${digits.slice(0, -TOTAL_DECIMALS)}.${fraction}`;
}

/** NOTE: SAT wants an RFC's `&` as `&amp;` inside the expression itself (phpcfdi/cfdi-expresiones 3.1.0, FormatRfcXml). */
function expressionRfc(rfc: string): string {
  return rfc.replaceAll('&', '&amp;');
}

/**
 * The "expresión impresa" of a CFDI 3.3/4.0, the QR code's text, exactly as phpcfdi/cfdi-expresiones builds it:
 * `https://verificacfdi.facturaelectronica.sat.gob.mx/default.aspx?id=…&re=…&rr=…&tt=…&fe=…`.
 * Throws a RangeError on values that cannot be in a stamped CFDI: better than asking SAT about garbage.
 */
export function cfdiStatusExpression(input: CfdiStatusExpressionInput): string {
  if (!UUID_PATTERN.test(input.uuid)) throw new RangeError(`Not a UUID: "${input.uuid}"`);
  for (const rfc of [input.issuerRfc, input.receiverRfc]) {
    if (!RFC_PATTERN.test(rfc)) throw new RangeError(`Not an RFC: "${rfc}"`);
  }
  const tail = sealTail(input.seal);
  if (!BASE64_TAIL.test(tail)) throw new RangeError('The seal is not a base64 signature');
  return `${CFDI_QR_URL}?${[
    `id=${input.uuid}`,
    `re=${expressionRfc(input.issuerRfc)}`,
    `rr=${expressionRfc(input.receiverRfc)}`,
    `tt=${formatStatusTotal(input.total)}`,
    `fe=${tail}`,
  ].join('&')}`;
}

/**
 * The fields of a CFDI 3.3/4.0 expression, in either form SAT takes (the QR URL or just its `?query`), keys in
 * any order; null unless it holds exactly id, re, rr, tt and fe, each well formed.
 * An RFC's `&` must come as `&amp;`: a bare `&` separates keys, as on SAT's side.
 */
export function parseStatusExpression(expression: string): StatusExpressionFields | null {
  const text = expression.trim();
  const query = text.startsWith('?')
    ? text.slice(1)
    : text.toLowerCase().startsWith(`${CFDI_QR_URL.toLowerCase()}?`)
      ? text.slice(CFDI_QR_URL.length + 1)
      : null;
  if (query === null) return null;
  const values = new Map<string, string>();
  for (const pair of query.split(/&(?!amp;)/)) {
    const separator = pair.indexOf('=');
    const key = pair.slice(0, separator);
    if (separator < 0 || values.has(key) || !(EXPRESSION_KEYS as readonly string[]).includes(key))
      return null;
    values.set(key, pair.slice(separator + 1).replaceAll('&amp;', '&'));
  }
  const fields = {
    id: values.get('id') ?? '',
    re: values.get('re') ?? '',
    rr: values.get('rr') ?? '',
    tt: values.get('tt') ?? '',
    fe: values.get('fe') ?? '',
  };
  const wellFormed =
    UUID_PATTERN.test(fields.id) &&
    RFC_PATTERN.test(fields.re) &&
    RFC_PATTERN.test(fields.rr) &&
    EXPRESSION_TOTAL.test(fields.tt) &&
    BASE64_TAIL.test(fields.fe);
  return wellFormed ? fields : null;
}

/** The last characters of the Sello that the expression carries (`fe`). */
export function sealTail(seal: string): string {
  return seal.trim().slice(-SEAL_TAIL_LENGTH);
}
