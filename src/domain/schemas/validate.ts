import {
  array,
  type Failure,
  type Infer,
  record,
  type Struct,
  type StructError,
  string,
  type,
  validate,
} from 'superstruct';
import { isLocalizedRefinement, MESSAGES } from './fields';

/** Spanish messages per field path ('email', 'quotes.0.amount'); root-level problems under FORM_ERROR_KEY. */
export type FieldErrors = Record<string, string[]>;

export const FORM_ERROR_KEY = '_form';

/** Error body for invalid input: the spec's client shows the first message of each entry (§8). */
export const FieldErrorsResponse = type({ errors: record(string(), array(string())) });
export type FieldErrorsResponse = Infer<typeof FieldErrorsResponse>;

export type FormResult<T> = { ok: true; value: T } | { ok: false; errors: FieldErrors };

function isRecord(value: unknown): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isMissing(value: unknown): boolean {
  return value === undefined || value === null || value === '';
}

function spanishMessage(failure: Failure): string {
  if (isLocalizedRefinement(failure.refinement)) return failure.message;
  // A top-level field left out says so, rather than the generic 'Valor no válido' (e.g. an integer id).
  if (failure.path.length === 1 && isMissing(failure.value)) return MESSAGES.required;
  // Built-in superstruct messages are English; users only ever see Spanish.
  return failure.type === 'never' ? MESSAGES.unknownField : MESSAGES.invalid;
}

function collect(error: StructError, into: FieldErrors): void {
  for (const failure of error.failures()) {
    const key = failure.path.length === 0 ? FORM_ERROR_KEY : failure.path.join('.');
    const message = spanishMessage(failure);
    const messages = into[key] ?? [];
    if (!messages.includes(message)) messages.push(message);
    into[key] = messages;
  }
}

// NOTE: superstruct words a refusal by printing the value (`${value}`), which overflows the stack on an array
// nested thousands deep and throws on an object whose own `toString` or `valueOf` is data, as a JSON body can
// make it (both found by test/api/openapi-fuzz.test.ts). No form nests anywhere near this deep or names a field
// so, and JSON cannot carry functions, so such a body is refused whole before superstruct sees it.
export const MAX_FORM_DEPTH = 32;
const PRIMITIVE_CONVERSION_KEYS = ['toString', 'valueOf'] as const;

/**
 * True when objects or arrays nest more than `limit` levels or an object overrides how it turns into text
 * (iterative: the input may be arbitrarily deep).
 */
function isUnprintable(value: unknown, limit: number): boolean {
  const pending: [unknown, number][] = [[value, 0]];
  while (pending.length > 0) {
    const [current, depth] = pending.pop() as [unknown, number];
    if (typeof current !== 'object' || current === null) continue;
    if (depth >= limit) return true;
    if (PRIMITIVE_CONVERSION_KEYS.some((key) => Object.hasOwn(current, key))) return true;
    for (const child of Object.values(current)) pending.push([child, depth + 1]);
  }
  return false;
}

/**
 * Validates (with coercion: trimming, defaults, stripping unknown fields) and returns the cleaned
 * value or every field's Spanish messages. Never throws on garbage: for an object struct given a
 * non-object (null, an array, a number) it reports FORM_ERROR_KEY plus each field as if missing.
 * Example: validateForm(DemoRequest, { email: 'x' }) → { ok: false, errors: { email: ['Debe ser un correo valido'], … } }.
 */
export function validateForm<T, S>(struct: Struct<T, S>, value: unknown): FormResult<T> {
  if (isUnprintable(value, MAX_FORM_DEPTH))
    return { ok: false, errors: { [FORM_ERROR_KEY]: [MESSAGES.form] } };
  const [error, clean] = validate(value, struct, { coerce: true, mask: true });
  if (error === undefined) return { ok: true, value: clean };
  const errors: FieldErrors = {};
  const isObjectStruct = struct.type === 'object' || struct.type === 'type';
  if (isObjectStruct && !isRecord(value)) {
    errors[FORM_ERROR_KEY] = [MESSAGES.form];
    const [fieldError] = validate({}, struct, { coerce: true, mask: true });
    if (fieldError !== undefined) collect(fieldError, errors);
  } else {
    collect(error, errors);
  }
  return { ok: false, errors };
}

/**
 * Spanish messages per field, empty when valid; the same call serves the browser form and the server.
 * Example: fieldErrors(DemoRequest, { …, email: 'a@', company: ' ' })
 *   → { email: ['Debe ser un correo valido'], company: ['Este campo es obligatorio'] }.
 */
export function fieldErrors<T, S>(struct: Struct<T, S>, value: unknown): FieldErrors {
  const result = validateForm(struct, value);
  return result.ok ? {} : result.errors;
}
