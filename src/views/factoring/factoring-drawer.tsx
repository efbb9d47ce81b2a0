import { Button, Callout, Radio, Spinner } from '@blueprintjs/core';
import type { SnapshotFrom } from 'xstate';
import { formatMxn, parseMoney } from '../../domain/money';
import type { FactoringOption, FactoringQuote } from '../../domain/schemas/factoring';
import type { factoringEnrolmentMachine } from '../../machines/factoring-enrolment.machine';
import { type Figure, Figures, InvoiceFigures } from '../invoices/invoice-figures';
import { LOADING_TEXT } from '../invoices/message-dialog';
import { SidePanel } from '../invoices/side-panel';

export const REQUEST_FACTORING_TEXT = 'Solicitar Factoraje';
export const TRANSFER_TEXT = 'Transferir';
export const INSTALMENTS_LEGEND = 'Número de pagos';

type Snapshot = SnapshotFrom<typeof factoringEnrolmentMachine>;

/** The line is in pesos: every figure of a factoring quote is MXN (a USD invoice at its CFDI rate). */
const money = (amount: string) => formatMxn(parseMoney(amount));

/** '3 pagos a 90 días: $34,513.89 MXN por pago, total $103,541.67 MXN' (spec §9 instalments). */
export function optionLabel(option: FactoringOption): string {
  const count = `${option.installments} ${option.installments === 1 ? 'pago' : 'pagos'}`;
  return `${count} a ${option.days} días: ${money(option.installment_payment)} por pago, total ${money(option.total_payment)}`;
}

/**
 * The quote's figures around the options (spec §2 side panel). The invoice itself (folio, amount with its
 * currency, peso value) heads the panel (InvoiceFigures); the quote's `amount` is that peso value.
 */
export function quoteFigures(quote: FactoringQuote): Figure[] {
  return [
    { label: 'Tasa anual de tu línea', value: `${quote.rate.toFixed(2)}%` },
    { label: 'Honorarios de asesoría (IVA incluido)', value: money(quote.advisory_fee) },
    { label: 'Monto a transferir hoy', value: money(quote.amount_to_transfer) },
    { label: 'Línea disponible', value: money(quote.available_credit) },
  ];
}

function Quote({
  quote,
  instalments,
  disabled,
  onChoose,
}: {
  quote: FactoringQuote;
  instalments: number;
  disabled: boolean;
  onChoose: (instalments: number) => void;
}) {
  // The rate above the options; what the choice does not change below them.
  const figures = quoteFigures(quote);
  return (
    <>
      <Figures figures={figures.slice(0, 1)} />
      <fieldset className="flujo-factoring-options" disabled={disabled}>
        <legend>{INSTALMENTS_LEGEND}</legend>
        {quote.options.map((option) => (
          <Radio
            key={option.installments}
            name="factoring-instalments"
            value={String(option.installments)}
            checked={option.installments === instalments}
            onChange={() => onChoose(option.installments)}
            label={optionLabel(option)}
          />
        ))}
      </fieldset>
      <Figures figures={figures.slice(1)} />
    </>
  );
}

/** Right-side panel of 'Solicitar Factoraje' (spec §2, §4): the quote, the instalments and 'Transferir'. */
export function FactoringDrawer({
  state,
  onChoose,
  onTransfer,
  onRetry,
  onClose,
}: {
  state: Snapshot;
  onChoose: (instalments: number) => void;
  onTransfer: () => void;
  onRetry: () => void;
  onClose: () => void;
}) {
  const { quote, invoice, dialog, instalments } = state.context;
  const busy = state.hasTag('busy');
  const transferring = state.matches('transferring');
  const showQuote =
    quote !== null && (state.matches('quoted') || transferring || state.matches('answerLost'));
  return (
    <SidePanel
      title={REQUEST_FACTORING_TEXT}
      isOpen={state.hasTag('drawer')}
      busy={busy}
      onClose={onClose}
      size="min(460px, 100vw)"
      footer={
        <>
          <Button text="Cerrar" disabled={busy} onClick={onClose} />{' '}
          {(state.matches('quoted') || transferring) && (
            <Button
              intent="primary"
              text={transferring ? LOADING_TEXT : TRANSFER_TEXT}
              disabled={busy}
              onClick={onTransfer}
            />
          )}
        </>
      }
    >
      {invoice && <InvoiceFigures invoice={invoice} />}
      {state.matches('quoting') && <Spinner aria-label="Cargando cotización…" />}
      {state.matches('quoteFailed') && (
        <Callout intent={dialog?.messageType === 'error' ? 'danger' : 'primary'} role="alert">
          <p>{dialog?.message}</p>
          <Button intent="primary" text="Reintentar" onClick={onRetry} />
        </Callout>
      )}
      {showQuote && (
        <Quote
          quote={quote}
          instalments={instalments}
          disabled={!state.matches('quoted')}
          onChoose={onChoose}
        />
      )}
      {state.matches('answerLost') && (
        <Callout intent="warning" role="alert">
          <p>{dialog?.message}</p>
          <Button intent="primary" text="Reintentar" onClick={onRetry} />
        </Callout>
      )}
    </SidePanel>
  );
}
