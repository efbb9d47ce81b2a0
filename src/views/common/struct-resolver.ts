import type { FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import type { Struct } from 'superstruct';
import { fieldErrors } from '../../domain/schemas/validate';

/**
 * A react-hook-form resolver over the same superstruct struct the server validates with,
 * so the browser and the API give the same Spanish message for the same field.
 */
export function structResolver<T extends FieldValues>(struct: Struct<T>): Resolver<T> {
  return async (values) => {
    const entries = Object.entries(fieldErrors(struct, values));
    if (entries.length === 0) return { values, errors: {} };
    const errors = Object.fromEntries(
      entries.map(([name, messages]) => [name, { type: 'validate', message: messages[0] }]),
    ) as FieldErrors<T>;
    return { values: {}, errors };
  };
}
