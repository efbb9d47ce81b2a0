import {
  array,
  coerce,
  defaulted,
  define,
  type Infer,
  object,
  refine,
  type Struct,
  string,
  unknown,
} from 'superstruct';
import { type IsoDate, isIsoDate } from '../calendar-date';
import { isWithinMoneyBound, MONEY_MESSAGES } from '../money';
import { bulkPaymentDateError, PAYMENT_DATE_INVALID, PAYMENT_DATE_REQUIRED } from '../payment-date';
import { PHONE_MESSAGE, phoneDigits } from '../phone';
import { checkCompanyRfc } from '../rfc';

/** Spanish validation messages; the spec's exact wording (§5) where it gives one. */
export const MESSAGES = {
  required: 'Este campo es obligatorio',
  email: 'Debe ser un correo valido',
  invalid: 'Valor no válido',
  unknownField: 'Campo no permitido',
  form: 'Los datos enviados no son válidos',
  passwordRequired: 'La contraseña es obligatoria',
  passwordTooShort: 'La contraseña debe tener al menos 8 caracteres',
  confirmRequired: 'Por favor, confirma tu contraseña',
  passwordsMustMatch: 'Las contraseñas deben coincidir',
  newPasswordTooShort: 'Su contraseña es muy corta. Debe contener al menos 8 caracteres.',
  passwordNumeric: 'La contraseña no puede ser completamente numérica.',
  newPasswordNumeric: 'Su contraseña no puede ser completamente numérica.',
  captchaFailed: 'No pudimos verificar que no eres un robot. Intenta de nuevo.',
  usernameInvalid:
    'Ingresa un nombre de usuario válido: solo letras, números y los caracteres @ . + - _ (sin espacios).',
} as const;

/** Django's wording for a value longer than its column. */
export function tooLongMessage(max: number): string {
  return `Asegúrate de que este campo no tenga más de ${max} caracteres.`;
}

/**
 * Column bounds of the account fields (Django's User and our companies table); the e-mail bound is
 * RFC 5321's (no deliverable address is longer).
 */
export const MAX_LENGTH = {
  username: 150,
  personName: 150,
  email: 254,
  company: 255,
  /**
   * A company named in the public demo form: what a legal name needs ('Comercializadora … , S.A.P.I. de C.V.'
   * runs to about 100), well under the companies table's 255; the inbox shows it whole (decision 0065).
   */
  demoCompany: 150,
} as const;

/** Django's username rule: letters, digits and @ . + - _ only. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}@.+\-_]+$/u;

/** Spec §9. */
export const PASSWORD_MIN_LENGTH = 8;

// Pragmatic shape check (something@domain.tld, no spaces), like an <input type="email">.
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const DIGITS_PATTERN = /^\d+$/;

// superstruct 2.0 does not export its ObjectSchema type; derive it from `object`'s parameter.
type ObjectSchema = NonNullable<Parameters<typeof object>[0]>;

/** What a field check returns: true when fine, else one or more Spanish messages. */
type CheckResult = true | string | string[];

// Refinement names whose messages are already Spanish and user-facing; fieldErrors passes
// them through and replaces any other (English, built-in) superstruct message.
const LOCALIZED_REFINEMENTS = new Set<string>();

/** True when a failure came from one of the Spanish field checks below. */
export function isLocalizedRefinement(refinement: string | undefined): boolean {
  return refinement !== undefined && LOCALIZED_REFINEMENTS.has(refinement);
}

/**
 * A field struct whose every check is a refinement over a type stage that accepts anything.
 * Why: superstruct skips an object's refinements (e.g. "passwords must match") as soon as a
 * child fails its type stage; keeping all field checks as refinements lets a form show the
 * field errors and the cross-field error together. The refinement still rejects wrong types.
 */
function localized<T>(name: string, check: (value: unknown) => CheckResult): Struct<T, null> {
  const refinement = `es.${name}`;
  LOCALIZED_REFINEMENTS.add(refinement);
  return refine(
    define<T>(name, () => true),
    refinement,
    (value) => check(value),
  );
}

function trimmedInput<T>(struct: Struct<T, null>): Struct<T, null> {
  return coerce(struct, string(), (text) => text.trim());
}

function isBlank(value: unknown): boolean {
  return typeof value !== 'string' || value.trim() === '';
}

// PostgreSQL text cannot hold U+0000, and no form has a use for it.
function hasNul(value: unknown): boolean {
  return typeof value === 'string' && value.includes('\u0000');
}

/**
 * A required string, trimmed on coercion: empty or missing → 'Este campo es obligatorio'; longer than
 * `maxLength` (after trimming) → Django's 'no más de N caracteres'.
 */
export function requiredText(options: { message?: string; maxLength?: number } = {}): Struct<string, null> {
  const { message = MESSAGES.required, maxLength } = options;
  return trimmedInput(
    localized<string>('requiredText', (value) => {
      if (isBlank(value)) return message;
      if (hasNul(value)) return MESSAGES.invalid;
      return maxLength === undefined || String(value).length <= maxLength || tooLongMessage(maxLength);
    }),
  );
}

/** A required user name (Django's rule): letters, digits and @ . + - _, at most 150 characters. */
export function username(): Struct<string, null> {
  return trimmedInput(
    localized<string>('username', (value) => {
      if (isBlank(value)) return MESSAGES.required;
      const text = String(value);
      const problems: string[] = [];
      if (!USERNAME_PATTERN.test(text)) problems.push(MESSAGES.usernameInvalid);
      if (text.length > MAX_LENGTH.username) problems.push(tooLongMessage(MAX_LENGTH.username));
      return problems.length === 0 || problems;
    }),
  );
}

/** A required string kept exactly as typed (passwords, tokens, CIEC). */
export function requiredSecret(message: string = MESSAGES.required): Struct<string, null> {
  return localized<string>(
    'requiredSecret',
    (value) => (typeof value === 'string' && value !== '') || message,
  );
}

/**
 * A required e-mail address, trimmed: empty → required message, malformed → 'Debe ser un correo valido'.
 * `tooLong`: the message for an address over MAX_LENGTH.email; without it the length is not bounded.
 */
export function emailAddress(options: { tooLong?: string } = {}): Struct<string, null> {
  return trimmedInput(
    localized<string>('email', (value) => {
      if (isBlank(value)) return MESSAGES.required;
      const problems: string[] = [];
      if (!EMAIL_PATTERN.test(String(value)) || hasNul(value)) problems.push(MESSAGES.email);
      if (options.tooLong !== undefined && String(value).length > MAX_LENGTH.email)
        problems.push(options.tooLong);
      return problems.length === 0 || problems;
    }),
  );
}

/**
 * A required phone number, one rule for every form and route that takes one (src/domain/phone.ts): 10 digits,
 * written with or without separators and kept as its digits ('55 1234 5678' → '5512345678'); anything else
 * gets PHONE_MESSAGE.
 */
export function phoneNumber(): Struct<string, null> {
  return coerce(
    localized<string>('phone', (value) => {
      if (isBlank(value)) return MESSAGES.required;
      return phoneDigits(String(value)) !== null || PHONE_MESSAGE;
    }),
    string(),
    (text) => phoneDigits(text) ?? text.trim(),
  );
}

/** Password rules; each message is optional so each form can use the wording the spec gives it. */
export type PasswordMessages = { required: string; tooShort: string; numeric?: string };

/** A required password of at least 8 characters, optionally not entirely numeric. All failing rules are reported. */
export function password(messages: PasswordMessages): Struct<string, null> {
  return localized<string>('password', (value) => {
    if (typeof value !== 'string' || value === '') return messages.required;
    const problems: string[] = [];
    if (value.length < PASSWORD_MIN_LENGTH) problems.push(messages.tooShort);
    if (messages.numeric !== undefined && DIGITS_PATTERN.test(value)) problems.push(messages.numeric);
    return problems.length === 0 || problems;
  });
}

/** A boolean checkbox; missing means false. */
export function flag(): Struct<boolean, null> {
  return defaulted(
    localized<boolean>('flag', (value) => typeof value === 'boolean' || MESSAGES.invalid),
    false,
  );
}

/** A required RFC of a real taxpayer, trimmed and upper-cased; the message says what is wrong. */
export function companyRfc(): Struct<string, null> {
  return coerce(
    localized<string>('rfc', (value) => {
      if (isBlank(value)) return MESSAGES.required;
      const check = checkCompanyRfc(String(value));
      return check.ok || check.reason;
    }),
    string(),
    // NFC: an Ñ typed as N + combining tilde must be stored as the same RFC the CFDI carries.
    (text) => text.normalize('NFC').trim().toUpperCase(),
  );
}

/** A required calendar date 'YYYY-MM-DD': 'Requerido' / 'Debe ser una fecha válida' (spec §5). */
export function paymentDate(): Struct<IsoDate, null> {
  return localized<IsoDate>('paymentDate', (value) => {
    if (isBlank(value)) return PAYMENT_DATE_REQUIRED;
    return isIsoDate(value) || PAYMENT_DATE_INVALID;
  });
}

/** The bulk-authorization date: as paymentDate, within the picker bounds 1900-01-01..2099-12-31. */
export function bulkPaymentDate(): Struct<IsoDate, null> {
  return localized<IsoDate>('bulkPaymentDate', (value) => {
    if (value !== undefined && value !== null && typeof value !== 'string') return PAYMENT_DATE_INVALID;
    return bulkPaymentDateError(value) ?? true;
  });
}

/** The largest PostgreSQL `serial` (int4): a bigger id cannot exist and must not reach SQL as an overflow. */
export const MAX_SERIAL_ID = 2_147_483_647;

/** A whole number within [min, max]; for values the UI picks from a list, and ids (1..MAX_SERIAL_ID). */
export function integerBetween(min: number, max: number): Struct<number, null> {
  return localized<number>(
    'integerBetween',
    (value) =>
      (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) ||
      MESSAGES.invalid,
  );
}

/** The one page bound of every list: a page past it is a scraper, not a person. */
export const MAX_PAGE = 1_000_000;

const ID_TEXT = /^[1-9]\d{0,9}$/;
const NUMBER_TEXT = /^\d{1,10}$/;

/** A query parameter given twice (?page=1&page=2) reads as its last value. */
function lastOf(value: unknown): unknown {
  return Array.isArray(value) ? value.at(-1) : value;
}

/**
 * A whole number written in a query string, within [min, max]; missing or blank is `fallback` (a refusal when
 * there is none). Example: queryInteger(1, 100, { fallback: 25 }) reads ' 30 ' as 30 and 'x' as 'Valor no válido'.
 */
export function queryInteger(
  min: number,
  max: number,
  options: { fallback?: number; message?: string } = {},
): Struct<number, null> {
  return coerce(
    localized<number>(
      'queryInteger',
      (value) =>
        (typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max) ||
        (options.message ?? MESSAGES.invalid),
    ),
    unknown(),
    (value) => {
      const text = lastOf(value);
      if (typeof text !== 'string') return text ?? options.fallback;
      const trimmed = text.trim();
      if (trimmed === '') return options.fallback;
      return NUMBER_TEXT.test(trimmed) ? Number(trimmed) : Number.NaN;
    },
  );
}

/** The `page` of a list: 1 to MAX_PAGE, 1 when missing. */
export function pageNumber(): Struct<number, null> {
  return queryInteger(1, MAX_PAGE, { fallback: 1 });
}

/** The `page_size` of a list: 1 to `max`, `fallback` when missing. */
export function pageSize(max: number, fallback: number): Struct<number, null> {
  return queryInteger(1, max, { fallback });
}

/**
 * A row id in a path segment ('/items/42/'): the digits of 1..MAX_SERIAL_ID, no sign, no leading zero, no
 * spaces. Anything else names a row that cannot exist.
 */
export function pathId(): Struct<number, null> {
  return coerce(
    localized<number>(
      'pathId',
      (value) =>
        (typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= MAX_SERIAL_ID) ||
        MESSAGES.invalid,
    ),
    string(),
    (text) => (ID_TEXT.test(text) ? Number(text) : Number.NaN),
  );
}

/** A query parameter's text, trimmed; missing or blank is null. */
function trimmedQueryText(value: unknown): unknown {
  const text = lastOf(value);
  if (text === undefined) return null;
  if (typeof text !== 'string') return text;
  return text.trim() === '' ? null : text.trim();
}

/** A query parameter's text, trimmed; missing or blank is null, anything else is what `check` accepts. */
export function queryText(check: (text: string) => true | string = () => true): Struct<string | null, null> {
  return coerce(
    localized<string | null>(
      'queryText',
      (value) => value === null || (typeof value === 'string' ? check(value) : MESSAGES.invalid),
    ),
    unknown(),
    trimmedQueryText,
  );
}

/** One of `values` in a query string, trimmed; missing or blank is null, or refused when `required`. */
export function queryChoice<T extends string>(
  values: readonly T[],
  options: { message?: string; required: true },
): Struct<T, null>;
export function queryChoice<T extends string>(
  values: readonly T[],
  options?: { message?: string; required?: false },
): Struct<T | null, null>;
export function queryChoice<T extends string>(
  values: readonly T[],
  options: { message?: string; required?: boolean } = {},
): Struct<T | null, null> {
  const message = options.message ?? MESSAGES.invalid;
  return coerce(
    localized<T | null>('queryChoice', (value) =>
      value === null ? !options.required || message : values.includes(value as T) || message,
    ),
    unknown(),
    trimmedQueryText,
  );
}

/** The path of a route about one row (/things/:id/). */
export const IdParams = payload({ id: pathId() });
export type IdParams = Infer<typeof IdParams>;

/** The query of a list whose only parameter is its page (the size is the list's). */
export const PageQuery = payload({ page: pageNumber() });
export type PageQuery = Infer<typeof PageQuery>;

/** What a batch body says when it is empty or too long; reported on the whole body ('_form'). */
export type BatchMessages = { empty: string; tooMany: string };

/** A JSON array body of 1 to `max` items. Example: batchOf(RejectItem, 500, { empty, tooMany }). */
export function batchOf<T, S>(item: Struct<T, S>, max: number, messages: BatchMessages) {
  const refinement = 'es.batch';
  LOCALIZED_REFINEMENTS.add(refinement);
  return refine(array(item), refinement, (items) => {
    if (items.length === 0) return messages.empty;
    return items.length <= max || messages.tooMany;
  });
}

/**
 * A request payload (form or API body). Decision: unknown extra fields are STRIPPED, not
 * rejected, whenever the struct coerces (`create`, `mask`, `fieldErrors`, `validateForm`): clients
 * may send UI state along, and the server must only ever see known fields. Plain `is()`/`assert()`
 * do not coerce and therefore still reject extras.
 */
export function payload<S extends ObjectSchema>(schema: S) {
  const keys = Object.keys(schema);
  return coerce(
    object(schema),
    define<Record<string, unknown>>(
      'record',
      (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    ),
    (value) => Object.fromEntries(keys.filter((key) => key in value).map((key) => [key, value[key]])),
  );
}

/**
 * Adds a cross-field rule "field `second` must equal field `first`" reported on `second`.
 * Example: mustMatch(SignUp, 'password1', 'password2', 'Las contraseñas deben coincidir').
 */
export function mustMatch<T extends Record<string, unknown>, S>(
  struct: Struct<T, S>,
  first: keyof T & string,
  second: keyof T & string,
  message: string,
): Struct<T, S> {
  const refinement = 'es.mustMatch';
  LOCALIZED_REFINEMENTS.add(refinement);
  return refine(struct, refinement, (value, context) => {
    // Only compare once the confirmation was typed; an empty one already says "confirm it".
    const confirmation = value[second];
    if (typeof confirmation !== 'string' || confirmation === '' || value[first] === confirmation) return true;
    return { path: [...context.path, second], message };
  });
}

/** A required 'YYYY-MM-DD' calendar date with the caller's messages for a missing and an impossible one. */
export function requiredDate(required: string, invalid: string): Struct<IsoDate, null> {
  return localized<IsoDate>('requiredDate', (value) => {
    if (isBlank(value)) return required;
    return isIsoDate(value) || invalid;
  });
}

/**
 * Adds a rule across fields, reported on the field it names; it runs when each field passed its own checks
 * (superstruct skips it otherwise). Example: the export's date range, whose problems go on `to`.
 */
export function crossFieldRule<T extends Record<string, unknown>, S>(
  struct: Struct<T, S>,
  check: (value: T) => { field: keyof T & string; message: string } | null,
): Struct<T, S> {
  const refinement = 'es.crossField';
  LOCALIZED_REFINEMENTS.add(refinement);
  return refine(struct, refinement, (value, context) => {
    const problem = check(value);
    return problem === null || { path: [...context.path, problem.field], message: problem.message };
  });
}

// Up to two decimals: a limit or a payment is money already rounded to the cent. Any number of digits, so
// an amount too large is told so (MONEY_MESSAGES.tooLarge) rather than called malformed.
export const MONEY_INPUT = /^\d+(\.\d{1,2})?$/;

// Exactly two decimals, as the API writes amounts: what a client sends back from a quote it was shown.
export const QUOTED_MONEY = /^\d+\.\d{2}$/;

/**
 * A required positive peso amount typed as '1000000' or '1000000.00' (no separators), at most 2 decimals and
 * at most MAX_MONEY_INPUT.
 */
export function positiveMoney(messages: { required: string; invalid: string }): Struct<string, null> {
  return trimmedInput(
    localized<string>('positiveMoney', (value) => {
      if (isBlank(value)) return messages.required;
      const text = String(value).trim();
      if (!(MONEY_INPUT.test(text) && /[1-9]/.test(text))) {
        // A huge figure typed with separators ('$1,000,000,000,000') is told it is too large, not only how to type it.
        const bare = text.replace(/[$,\s]/g, '');
        return MONEY_INPUT.test(bare) && !isWithinMoneyBound(bare)
          ? MONEY_MESSAGES.tooLarge
          : messages.invalid;
      }
      return isWithinMoneyBound(text) || MONEY_MESSAGES.tooLarge;
    }),
  );
}

/**
 * A required amount a client echoes from a quote, as the API wrote it ('1234.56'; zero allowed), at most
 * MAX_MONEY_INPUT: the server compares it with its own figures, which it can only do for an amount it can hold.
 */
export function quotedMoney(): Struct<string, null> {
  return trimmedInput(
    localized<string>('quotedMoney', (value) => {
      if (value === undefined || value === null || (typeof value === 'string' && value.trim() === ''))
        return MESSAGES.required;
      const text = typeof value === 'string' ? value.trim() : '';
      if (!QUOTED_MONEY.test(text)) return MESSAGES.invalid;
      return isWithinMoneyBound(text) || MONEY_MESSAGES.tooLarge;
    }),
  );
}

/** A required text matching `pattern` (after trimming), e.g. a SPEI clave de rastreo. */
export function patternText(
  pattern: RegExp,
  messages: { required: string; invalid: string },
): Struct<string, null> {
  return trimmedInput(
    localized<string>('patternText', (value) => {
      if (isBlank(value)) return messages.required;
      return pattern.test(String(value).trim()) || messages.invalid;
    }),
  );
}

/**
 * A field with its own Spanish check (the rule lives in the domain module that owns it).
 * Example: checkedField('annualRate', (value) => annualRateProblem(value) ?? true).
 */
export function checkedField<T>(name: string, check: (value: unknown) => true | string): Struct<T, null> {
  return localized<T>(name, check);
}
