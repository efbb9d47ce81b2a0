import { parseIsoDate } from './calendar-date';

/** Result of checking an RFC; a failed check carries a Spanish reason for the user. */
export type RfcCheck =
  | { ok: true; rfc: string; kind: 'moral' | 'fisica'; checkDigitValid: boolean; generic: boolean }
  | { ok: false; reason: string };

/** NOTE: SAT t_RFC pattern (cfdv40.xsd / tdCFDI.xsd). */
export const RFC_PATTERN = /^[A-Z&Ñ]{3,4}[0-9]{2}(0[1-9]|1[012])(0[1-9]|[12][0-9]|3[01])[A-Z0-9]{2}[0-9A]$/;

/** Público en general and foreigners; SAT-defined, and both fail the check-digit formula. */
export const GENERIC_RFC_NATIONAL = 'XAXX010101000';
export const GENERIC_RFC_FOREIGN = 'XEXX010101000';
const GENERIC_RFCS: ReadonlySet<string> = new Set([GENERIC_RFC_NATIONAL, GENERIC_RFC_FOREIGN]);

export const RFC_REASONS = {
  required: 'El RFC es obligatorio',
  format: 'El RFC no tiene un formato válido',
  date: 'La fecha del RFC no es válida',
  generic: 'El RFC genérico no es válido para una empresa',
} as const;

/**
 * NOTE: SAT check-digit dictionary (phpcfdi/rfc CheckSum.php; research note §2.3):
 * a character's value is its index; space = 37 (pads 12-char RFCs), Ñ = 38.
 */
const CHECK_DIGIT_DICTIONARY = '0123456789ABCDEFGHIJKLMN&OPQRSTUVWXYZ Ñ';
const MORAL_LENGTH = 12;
const FISICA_LENGTH = 13;
const CHECK_DIGIT_MODULUS = 11;

/**
 * The SAT check digit for the first 11 (moral) or 12 (física) characters of an RFC.
 * Example: rfcCheckDigit('CAMA911215CJ') === '0'; rfcCheckDigit('COSC8001137N') === 'A'.
 */
export function rfcCheckDigit(rfcWithoutLast: string): string {
  const body = rfcWithoutLast.normalize('NFC').toUpperCase();
  if (body.length !== MORAL_LENGTH - 1 && body.length !== FISICA_LENGTH - 1) {
    throw new Error(`RFC body must be 11 or 12 characters: "${rfcWithoutLast}"`);
  }
  // A moral RFC is one letter shorter; SAT pads it with a leading space so weights line up.
  const padded = body.padStart(FISICA_LENGTH - 1, ' ');
  let sum = 0;
  for (let i = 0; i < padded.length; i++) {
    const value = CHECK_DIGIT_DICTIONARY.indexOf(padded.charAt(i));
    if (value < 0) throw new Error(`Character not allowed in an RFC: "${padded.charAt(i)}"`);
    sum += value * (FISICA_LENGTH - i);
  }
  const digit = (CHECK_DIGIT_MODULUS - (sum % CHECK_DIGIT_MODULUS)) % CHECK_DIGIT_MODULUS;
  return digit === 10 ? 'A' : String(digit);
}

// YYMMDD in an RFC carries no century; accept it if the day exists in 19YY or 20YY
// (so 000229 is valid: 2000 was a leap year).
function hasRealDate(yymmdd: string): boolean {
  const [yy, mm, dd] = [yymmdd.slice(0, 2), yymmdd.slice(2, 4), yymmdd.slice(4, 6)];
  return ['19', '20'].some((century) => parseIsoDate(`${century}${yy}-${mm}-${dd}`) !== null);
}

/**
 * Checks an RFC (trimmed, upper-cased): SAT format, a real date, and the check digit.
 * A wrong check digit is only a warning (ok, checkDigitValid false): SAT has issued real RFCs
 * that fail it, e.g. LME060822IH5. Generic RFCs are ok with generic true.
 */
export function checkRfc(input: string): RfcCheck {
  const rfc = input.normalize('NFC').trim().toUpperCase();
  if (rfc === '') return { ok: false, reason: RFC_REASONS.required };
  if (!RFC_PATTERN.test(rfc)) return { ok: false, reason: RFC_REASONS.format };
  const kind = rfc.length === MORAL_LENGTH ? 'moral' : 'fisica';
  const dateStart = rfc.length - 9;
  if (!hasRealDate(rfc.slice(dateStart, dateStart + 6))) return { ok: false, reason: RFC_REASONS.date };
  // Reported as computed, so generic RFCs say false here; callers look at `generic` first.
  const checkDigitValid = rfcCheckDigit(rfc.slice(0, -1)) === rfc.slice(-1);
  return { ok: true, rfc, kind, checkDigitValid, generic: GENERIC_RFCS.has(rfc) };
}

/** Like checkRfc, but a provider or corporate must be a real taxpayer: generic RFCs are rejected. */
export function checkCompanyRfc(input: string): RfcCheck {
  const check = checkRfc(input);
  return check.ok && check.generic ? { ok: false, reason: RFC_REASONS.generic } : check;
}
