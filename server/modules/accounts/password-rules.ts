import { dictionary } from '@zxcvbn-ts/language-common';
import { MESSAGES, PASSWORD_MIN_LENGTH } from '../../../src/domain/schemas/fields';

// Django's default AUTH_PASSWORD_VALIDATORS, in Django's order (all failures are reported together):
// UserAttributeSimilarity, MinimumLength, CommonPassword, Numeric (research/performance-and-security.md §7.1).

export const PASSWORD_RULE_MESSAGES = {
  tooSimilar: 'La contraseña es demasiado similar a la información personal.',
  tooCommon: 'La contraseña es demasiado común.',
} as const;

/** The wording of each form (spec §5 words sign-up and password change differently). */
export interface PasswordRuleMessages {
  tooShort: string;
  numeric: string;
}

// The wording is the shared structs' (src/domain/schemas/fields.ts), which check the same two rules in the browser.
export const SIGN_UP_PASSWORD_MESSAGES: PasswordRuleMessages = {
  tooShort: MESSAGES.passwordTooShort,
  numeric: MESSAGES.passwordNumeric,
};

/** Password change: spec §5 "Password change". */
export const NEW_PASSWORD_MESSAGES: PasswordRuleMessages = {
  tooShort: MESSAGES.newPasswordTooShort,
  numeric: MESSAGES.newPasswordNumeric,
};

/** The personal data a password must not resemble (Django: username, first_name, last_name, email). */
export interface PasswordPersonalData {
  username?: string | undefined;
  firstName?: string | undefined;
  lastName?: string | undefined;
  email?: string | undefined;
}

// NOTE: Django's max_similarity default; difflib's quick_ratio is an upper bound of ratio().
const MAX_SIMILARITY = 0.7;
// Arbitrary DoS bound, not a composition rule (ASVS 6.2.9 asks to allow at least 64).
export const PASSWORD_MAX_LENGTH = 1024;
export const PASSWORD_TOO_LONG = `La contraseña no puede tener más de ${PASSWORD_MAX_LENGTH} caracteres.`;

// ASVS 6.2.11: words of this product and market that a user is tempted to use.
const CONTEXT_WORDS = [
  'flujo',
  'flujo123',
  'factoraje',
  'factura',
  'facturas',
  'prontopago',
  'pronto pago',
  'contraseña',
  'contrasena',
  'contraseña1',
  'contrasena1',
  'contraseña123',
  'contrasena123',
  'mexico',
  'mexico123',
  'méxico123',
];

let commonPasswords: Set<string> | null = null;

/**
 * About 49,000 common passwords from zxcvbn-ts's `passwords-common` list (lower-case), plus the context words.
 * Django ships a 20,000-entry list; ASVS 6.2.4 asks for at least the top 3,000. Loaded on first use.
 */
function commonPasswordSet(): Set<string> {
  commonPasswords ??= new Set([
    ...dictionary['passwords-common'].map((word) => word.toLowerCase()),
    ...CONTEXT_WORDS,
  ]);
  return commonPasswords;
}

export function isCommonPassword(password: string): boolean {
  return commonPasswordSet().has(password.toLowerCase().trim());
}

/** Python's str.isdigit() for the characters a keyboard produces. */
export function isEntirelyNumeric(password: string): boolean {
  return /^\p{Nd}+$/u.test(password);
}

/** Python difflib SequenceMatcher(a, b).quick_ratio(): 2·M/T with M the multiset intersection of characters. */
export function quickRatio(a: readonly string[], b: readonly string[]): number {
  const total = a.length + b.length;
  if (total === 0) return 1;
  const available = new Map<string, number>();
  for (const char of b) available.set(char, (available.get(char) ?? 0) + 1);
  let matches = 0;
  for (const char of a) {
    const left = available.get(char) ?? 0;
    if (left > 0) matches += 1;
    available.set(char, left - 1);
  }
  return (2 * matches) / total;
}

/** Django's exceeds_maximum_length_ratio (CVE-2021-45115): skip tiny parts against a very long password. */
function exceedsMaximumLengthRatio(passwordLength: number, valueLength: number): boolean {
  return passwordLength >= 10 * valueLength && valueLength < (MAX_SIMILARITY / 2) * passwordLength;
}

/**
 * Django's UserAttributeSimilarityValidator: the lower-cased password against each attribute and each of its
 * parts split on non-word characters (so 'ana.torres@correo.mx' also checks 'ana', 'torres', 'correo', 'mx').
 */
export function isTooSimilar(password: string, personal: PasswordPersonalData): boolean {
  const passwordChars = Array.from(password.toLowerCase());
  const values = [personal.username, personal.firstName, personal.lastName, personal.email];
  for (const value of values) {
    if (!value) continue;
    const lower = value.toLowerCase();
    const parts = [...lower.split(/[^\p{L}\p{N}_]+/u), lower];
    for (const part of parts) {
      const partChars = Array.from(part);
      if (exceedsMaximumLengthRatio(passwordChars.length, partChars.length)) continue;
      if (quickRatio(passwordChars, partChars) >= MAX_SIMILARITY) return true;
    }
  }
  return false;
}

/** Every rule the password breaks, in Django's order, with the form's wording; empty when it is acceptable. */
export function passwordProblems(
  password: string,
  personal: PasswordPersonalData,
  messages: PasswordRuleMessages,
): string[] {
  if (password.length > PASSWORD_MAX_LENGTH) return [PASSWORD_TOO_LONG];
  const problems: string[] = [];
  if (isTooSimilar(password, personal)) problems.push(PASSWORD_RULE_MESSAGES.tooSimilar);
  if (password.length < PASSWORD_MIN_LENGTH) problems.push(messages.tooShort);
  if (isCommonPassword(password)) problems.push(PASSWORD_RULE_MESSAGES.tooCommon);
  if (isEntirelyNumeric(password)) problems.push(messages.numeric);
  return problems;
}
