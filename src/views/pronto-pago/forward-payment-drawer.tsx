import { Button, Callout, Classes, Spinner } from '@blueprintjs/core';
import type { SnapshotFrom } from 'xstate';
import { formatMxn, parseMoney } from '../../domain/money';
import { displayedAnnualRate, RATE_LABEL } from '../../domain/quote';
import type { ForwardPaymentQuote } from '../../domain/schemas/invoices';
import type { forwardPaymentMachine } from '../../machines/forward-payment.machine';
import { type Figure, Figures, InvoiceFigures } from '../invoices/invoice-figures';
import { formatDisplayDate } from '../invoices/invoice-format';
import { SidePanel } from '../invoices/side-panel';

export const ADVANCE_TEXT = 'Adelantar pago';
export const QUOTE_TITLE = 'Adelantar pago';

type Snapshot = SnapshotFrom<typeof forwardPaymentMachine>;

/**
 * The quote's figures in display form (spec §3, §9; docs/decisions/0002-quote-and-iva.md). The advance is paid by
 * SPEI in pesos, so the quote's amounts are pesos whatever the invoice's currency.
 */
export function quoteFigures(quote: ForwardPaymentQuote): Figure[] {
  const money = (amount: string) => formatMxn(parseMoney(amount));
  return [
    { label: 'Tasa anual', value: `${displayedAnnualRate(quote.max_rate)}% ${RATE_LABEL}` },
    { label: 'Días de adelanto', value: String(quote.days) },
    { label: 'Costo financiero', value: money(quote.cost_financing) },
    { label: 'Costo de asesoría', value: money(quote.cost_consultancy) },
    { label: 'Total a recibir', value: money(quote.total) },
  ];
}

function QuoteFigures({ quote }: { quote: ForwardPaymentQuote }) {
  return (
    <>
      <Figures label="Cotización" figures={quoteFigures(quote)} />
      <p className={Classes.TEXT_MUTED}>Cotización del {formatDisplayDate(quote.now)}.</p>
    </>
  );
}

/** Right-side drawer of 'Adelantar pago' (spec §2, §4): the quote, its errors and the confirmation. */
export function ForwardPaymentDrawer({
  state,
  onConfirm,
  onRetry,
  onClose,
}: {
  state: Snapshot;
  onConfirm: () => void;
  onRetry: () => void;
  onClose: () => void;
}) {
  const { quote, invoice, dialog } = state.context;
  const busy = state.hasTag('busy');
  return (
    <SidePanel
      title={QUOTE_TITLE}
      isOpen={state.hasTag('drawer')}
      busy={busy}
      onClose={onClose}
      size="min(440px, 100vw)"
      footer={
        <>
          <Button text="Cerrar" disabled={busy} onClick={onClose} />{' '}
          {(state.matches('quoted') || state.matches('approving')) && (
            <Button
              intent="primary"
              text={ADVANCE_TEXT}
              loading={state.matches('approving')}
              disabled={busy}
              onClick={onConfirm}
            />
          )}
        </>
      }
    >
      {invoice && <InvoiceFigures invoice={invoice} />}
      {state.matches('quoting') && <Spinner aria-label="Cargando cotización…" />}
      {state.matches('quoteFailed') && (
        <Callout intent="danger" role="alert">
          <p>{dialog?.message}</p>
          <Button intent="primary" text="Reintentar" onClick={onRetry} />
        </Callout>
      )}
      {quote && !state.matches('quoting') && !state.matches('quoteFailed') && <QuoteFigures quote={quote} />}
      {state.matches('answerLost') && (
        <Callout intent="warning" role="alert">
          <p>{dialog?.message}</p>
          <Button intent="primary" text="Reintentar" onClick={onRetry} />
        </Callout>
      )}
    </SidePanel>
  );
}
