import { Classes } from '@blueprintjs/core';
import { DotIcon, SmallCrossIcon, SmallTickIcon } from '@blueprintjs/icons';
import { PASSWORD_RULES, violatedPasswordRules } from '../../domain/password-rules';
import './account.css';

/**
 * The password rules (spec §2/§5). Given the typed `value`, the rules the browser checks turn red when
 * broken and green when met; without one (or before anything is typed) every rule is a plain hint.
 */
export function PasswordRulesList({ id, value }: { id: string; value?: string }) {
  const live = value !== undefined && value !== '';
  const violated = live ? violatedPasswordRules(value) : [];
  return (
    <ul id={id} className="flujo-password-rules" aria-label="Requisitos de la contraseña">
      {PASSWORD_RULES.map((rule) => {
        const checked = live && rule.checkedInBrowser;
        const broken = checked && violated.includes(rule.id);
        const status = !checked ? 'hint' : broken ? 'violated' : 'met';
        return (
          <li
            key={rule.id}
            data-rule={rule.id}
            data-status={status}
            className={
              status === 'violated'
                ? `flujo-rule-violated ${Classes.INTENT_DANGER}`
                : status === 'met'
                  ? 'flujo-rule-met'
                  : undefined
            }
          >
            {status === 'violated' ? <SmallCrossIcon /> : status === 'met' ? <SmallTickIcon /> : <DotIcon />}
            <span>
              {rule.text}
              {status !== 'hint' && (
                <span className="flujo-sr-only">
                  {status === 'violated' ? ' (no se cumple)' : ' (se cumple)'}
                </span>
              )}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
