import { Card, Classes } from '@blueprintjs/core';
import {
  ArrowRightIcon,
  BankAccountIcon,
  CreditCardIcon,
  DollarIcon,
  ExchangeIcon,
} from '@blueprintjs/icons';
import { useMachine } from '@xstate/react';
import { parseMoney } from '../../domain/money';
import type { Indicators } from '../../domain/schemas/invoices';
import type { factoringEnrolmentMachine } from '../../machines/factoring-enrolment.machine';
import { MoneyFigure } from '../common/money-figure';
import { CONTACT_EMAIL } from '../common/site-config';
import { MessageDialog } from '../invoices/message-dialog';
import './factoring.css';
import { HeaderCardFigure as Figure } from '../dashboard/header-card-figure';

export const FACTORING_ENROL_CARD_TEXT = 'Date de alta y solicita una línea revolvente de factoraje';

/** The line's figures as their list's first page brought them (the factoring list, or the statement's). */
export interface FactoringBalance {
  indicators: Indicators | undefined;
  isPending: boolean;
  isError: boolean;
}

/** Spec §2 balance card: the factoring line, what is used, what is left, and the wallet's balance. */
export function FactoringBalanceCard({ balance }: { balance: FactoringBalance }) {
  const { indicators, isPending, isError } = balance;
  // The line and the wallet are in pesos (a USD invoice is factored at its CFDI rate).
  const value = (amount: string | undefined) =>
    indicators ? (
      <MoneyFigure amount={parseMoney(amount ?? '0')} currency="MXN" />
    ) : (
      <span className={Classes.SKELETON} aria-hidden="true">
        0000000
      </span>
    );
  return (
    <Card className="flujo-header-card" aria-labelledby="linea-titulo" aria-busy={isPending}>
      <h2 id="linea-titulo" className="flujo-header-card-label">
        Línea de factoraje
      </h2>
      {isError ? (
        <p className="flujo-header-card-status">No pudimos cargar tu línea de factoraje.</p>
      ) : (
        <dl className="flujo-header-card-figures">
          <Figure
            icon={<BankAccountIcon />}
            label="Línea de factoraje"
            value={value(indicators?.credit_line)}
          />
          <Figure icon={<CreditCardIcon />} label="Utilizado" value={value(indicators?.credit_used)} />
          <Figure icon={<DollarIcon />} label="Disponible" value={value(indicators?.available_credit)} />
          <Figure icon={<ExchangeIcon />} label="Saldo en cartera" value={value(indicators?.spei_balance)} />
        </dl>
      )}
      {isPending && <p className="flujo-visually-hidden">Cargando…</p>}
    </Card>
  );
}

/**
 * Spec §2 blue card, for an account without factoring: the click sends the enable request and the dialog shows
 * the corporate-facing text with the contact address (spec §8).
 */
export function FactoringEnrolCard({ machine }: { machine: typeof factoringEnrolmentMachine }) {
  const [state, send] = useMachine(machine);
  return (
    <Card className="flujo-header-card flujo-header-card-blue">
      <h2 className="flujo-header-card-title">
        <button
          type="button"
          className="flujo-enrol-button"
          disabled={state.hasTag('busy')}
          onClick={() => send({ type: 'enrolment.request', contactEmail: CONTACT_EMAIL })}
        >
          {FACTORING_ENROL_CARD_TEXT}
        </button>
      </h2>
      <ArrowRightIcon className="flujo-header-card-blue-icon" size={20} />
      <MessageDialog
        isOpen={state.hasTag('dialog')}
        loading={state.matches('enrolling')}
        variant={state.context.dialog?.messageType ?? 'info'}
        message={state.context.dialog?.message ?? null}
        onClose={() => send({ type: 'dialog.close' })}
      />
    </Card>
  );
}
