import type { Struct } from 'superstruct';
import { MESSAGES } from '../../../src/domain/schemas/fields';
import { FORM_ERROR_KEY, validateForm } from '../../../src/domain/schemas/validate';
import { FieldErrors } from '../../http/errors';

function isMissing(body: unknown, field: string): boolean {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return true;
  const value = (body as Record<string, unknown>)[field];
  return value === undefined || value === null || value === '';
}

/**
 * Validates a JSON body with its domain struct and returns the clean value, or throws a 400 with Spanish
 * messages per field. A field that is simply absent says 'Este campo es obligatorio' rather than the
 * struct's generic 'Valor no válido'.
 */
export function validBody<T, S>(struct: Struct<T, S>, body: unknown): T {
  const result = validateForm(struct, body);
  if (result.ok) return result.value;
  const errors: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(result.errors)) {
    const topLevel = field !== FORM_ERROR_KEY && !field.includes('.');
    errors[field] = topLevel && isMissing(body, field) ? [MESSAGES.required] : messages;
  }
  throw new FieldErrors(errors);
}
