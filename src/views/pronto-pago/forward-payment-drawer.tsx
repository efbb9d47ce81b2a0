import { Button, Callout, Classes, Spinner } from '@blueprintjs/core';
import type { SnapshotFrom } from 'xstate';
import { formatCurrency, parseMoney } from '../../domain/money';
import { displayedAnnualRate, RATE_LABEL } from '../../domain/quote';
import type { ForwardPaymentQuote } from '../../domain/schemas/invoices';
import type { forwardPaymentMachine } from '../../machines/forward-payment.machine';
import { formatDisplayDate } from '../invoices/invoice-format';
import { SidePanel } from '../invoices/side-panel';

export const ADVANCE_TEXT = 'Adelantar pago';
export const QUOTE_TITLE = 'Adelantar pago';

type Snapshot = SnapshotFrom<typeof forwardPaymentMachine>;

/** The quote's figures in display form (spec §3, §9; docs/decisions/0002-quote-and-iva.md). */
export function quoteFigures(quote: ForwardPaymentQuote): { label: string; value: string }[] {
  const money = (amount: string) => formatCurrency(parseMoney(amount));
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
      <dl className="flujo-quote-figures" aria-label="Cotización">
        {quoteFigures(quote).map((figure) => (
          <div key={figure.label} style={{ display: 'contents' }}>
            <dt>{figure.label}</dt>
            <dd data-figure={figure.label}>{figure.value}</dd>
          </div>
        ))}
      </dl>
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
  const { quote, folio, dialog } = state.context;
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
      <p className={Classes.TEXT_MUTED}>Factura {folio}</p>
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
