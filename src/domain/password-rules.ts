import { validate } from 'superstruct';
import { PASSWORD_MIN_LENGTH, password } from './schemas/fields';

/** The password rules a user is shown (spec §2 "New password", §5), in display order. */
export type PasswordRuleId = 'minLength' | 'notNumeric' | 'notSimilar' | 'notCommon';

export interface PasswordRule {
  id: PasswordRuleId;
  /** Spanish, as the user reads it. */
  text: string;
  /** True when the browser checks it as the user types; the others only the server can check. */
  checkedInBrowser: boolean;
}

/** Django's wording of its four password validators, which the server enforces (spec §5). */
export const PASSWORD_RULES: readonly PasswordRule[] = [
  {
    id: 'minLength',
    text: `Su contraseña debe contener al menos ${PASSWORD_MIN_LENGTH} caracteres.`,
    checkedInBrowser: true,
  },
  { id: 'notNumeric', text: 'Su contraseña no puede ser completamente numérica.', checkedInBrowser: true },
  {
    id: 'notSimilar',
    text: 'Su contraseña no puede asemejarse tanto a su otra información personal.',
    checkedInBrowser: false,
  },
  {
    id: 'notCommon',
    text: 'Su contraseña no puede ser una clave utilizada comúnmente.',
    checkedInBrowser: false,
  },
];

// The same `password` field rule the forms and the server validate with, reporting rule ids instead of
// messages, so the list shown while typing can never disagree with the form's validation.
const ruleProbe = password({ required: 'required', tooShort: 'minLength', numeric: 'notNumeric' });
const BROWSER_RULES = new Set<string>(
  PASSWORD_RULES.filter((rule) => rule.checkedInBrowser).map((r) => r.id),
);

/**
 * The browser-checked rules `value` breaks, in display order. Nothing typed breaks nothing yet: the
 * list turns red as the user types, and the empty field has its own 'required' message.
 * Example: violatedPasswordRules('1234') → ['minLength', 'notNumeric']; violatedPasswordRules('') → [].
 */
export function violatedPasswordRules(value: string): PasswordRuleId[] {
  const [error] = validate(value, ruleProbe);
  if (!error) return [];
  const broken = new Set(error.failures().map((failure) => failure.message));
  return PASSWORD_RULES.filter((rule) => BROWSER_RULES.has(rule.id) && broken.has(rule.id)).map(
    (rule) => rule.id,
  );
}
