/**
 * The field errors of a rejected call's 400 body ({field: [message]}), limited to `fields` when given,
 * or none when the failure was not a 400 or carried no field messages. Forms show them under the fields.
 */
export function fieldErrorsOf<F extends string>(
  error: unknown,
  fields?: readonly F[],
): Partial<Record<F, string[]>> {
  const { status, body } = (error ?? {}) as { status?: unknown; body?: unknown };
  if (status !== 400 || !body || typeof body !== 'object') return {};
  const errors: Partial<Record<F, string[]>> = {};
  for (const [field, messages] of Object.entries(body)) {
    if (fields && !fields.includes(field as F)) continue;
    if (Array.isArray(messages) && typeof messages[0] === 'string') errors[field as F] = messages as string[];
  }
  return errors;
}
