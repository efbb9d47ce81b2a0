/** Result of checking a CLABE; a failed check carries a Spanish reason for the user. */
export type ClabeCheck =
  | { ok: true; clabe: string; bankCode: string; bankName?: string }
  | { ok: false; reason: string };

export const CLABE_LENGTH = 18;

/** NOTE: CLABE check digit uses weights 3, 7, 1 repeated over the first 17 digits (Banxico; research §2.4). */
const CLABE_WEIGHTS = [3, 7, 1] as const;

/**
 * NOTE: ABM bank codes of the first three digits (Banxico SPEI participants; center-key/clabe-validator).
 * A short catalogue: an unknown code is not an error, it only leaves bankName empty.
 */
export const CLABE_BANKS: Readonly<Record<string, string>> = {
  '002': 'BANAMEX',
  '006': 'BANCOMEXT',
  '009': 'BANOBRAS',
  '012': 'BBVA MEXICO',
  '014': 'SANTANDER',
  '019': 'BANJERCITO',
  '021': 'HSBC',
  '030': 'BAJIO',
  '036': 'INBURSA',
  '042': 'MIFEL',
  '044': 'SCOTIABANK',
  '058': 'BANREGIO',
  '059': 'INVEX',
  '062': 'AFIRME',
  '072': 'BANORTE',
  '106': 'BANK OF AMERICA',
  '127': 'AZTECA',
  '130': 'COMPARTAMOS',
  '135': 'NAFIN',
  '137': 'BANCOPPEL',
  '166': 'BANCO DEL BIENESTAR',
  '646': 'STP',
};

export const CLABE_REASONS = {
  required: 'La CLABE es obligatoria',
  length: 'La CLABE debe tener 18 dígitos',
  checkDigit: 'El dígito verificador de la CLABE no es válido',
} as const;

/** Check digit for the first 17 digits: clabeCheckDigit('00201007777777777') === '1'. */
export function clabeCheckDigit(first17: string): string {
  if (!/^\d{17}$/.test(first17)) throw new Error(`Expected 17 digits: "${first17}"`);
  let sum = 0;
  for (let i = 0; i < first17.length; i++) {
    sum += (Number(first17[i]) * CLABE_WEIGHTS[i % CLABE_WEIGHTS.length]!) % 10;
  }
  return String((10 - (sum % 10)) % 10);
}

/**
 * Checks an 18-digit CLABE (spaces ignored): length and check digit; names the bank when known.
 * Example: checkClabe('002010077777777771') → { ok: true, bankCode: '002', bankName: 'BANAMEX', … }.
 */
export function checkClabe(input: string): ClabeCheck {
  // People paste CLABEs grouped with spaces ("002 010 07777777777 1").
  const clabe = input.replace(/\s+/g, '');
  if (clabe === '') return { ok: false, reason: CLABE_REASONS.required };
  if (!/^\d{18}$/.test(clabe)) return { ok: false, reason: CLABE_REASONS.length };
  if (clabeCheckDigit(clabe.slice(0, -1)) !== clabe.slice(-1))
    return { ok: false, reason: CLABE_REASONS.checkDigit };
  const bankCode = clabe.slice(0, 3);
  const bankName = CLABE_BANKS[bankCode];
  return bankName === undefined ? { ok: true, clabe, bankCode } : { ok: true, clabe, bankCode, bankName };
}

/**
 * A CLABE as the back office shows it where only recognising it matters (a confirmation, a list to choose from):
 * its bank and last four digits. maskClabe('012180001234567897') === 'BBVA MEXICO •••• 7897'; an unknown bank
 * leaves its code ('999 •••• 1234').
 */
export function maskClabe(clabe: string): string {
  const digits = clabe.replace(/\s+/g, '');
  const code = digits.slice(0, 3);
  return `${CLABE_BANKS[code] ?? code} •••• ${digits.slice(-4)}`;
}
