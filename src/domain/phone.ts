// The one phone rule (issue 33): a Mexican phone number is 10 digits (IFT's national numbering plan since
// 2019: 2-3 digit area code and the subscriber's number, no prefixes). People write it grouped, so the
// usual separators (spaces, hyphens, dots, parentheses) are read past and the number is kept as its digits.

/** How many digits a phone number has. */
export const PHONE_DIGITS = 10;

/** The refusal of anything else: letters, too few or too many digits. */
export const PHONE_MESSAGE = `Escribe los ${PHONE_DIGITS} dígitos del teléfono, por ejemplo 5512345678`;

const SEPARATORS = /[\s().-]/g;

/** The same rule as one pattern, for the OpenAPI document: 10 digits among separators. */
export const PHONE_PATTERN = new RegExp(`^[\\s().-]*(?:\\d[\\s().-]*){${PHONE_DIGITS}}$`);
const TEN_DIGITS = new RegExp(`^\\d{${PHONE_DIGITS}}$`);

/**
 * The phone's 10 digits, or null when the text is not a 10-digit number once its separators are read past.
 * Example: phoneDigits('55 1234-5678') === '5512345678'; phoneDigits('55-ABC') === null; phoneDigits('123') === null.
 */
export function phoneDigits(text: string): string | null {
  const digits = text.replace(SEPARATORS, '');
  return TEN_DIGITS.test(digits) ? digits : null;
}
