import { Button, Card, Classes, Dialog, H1, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import { useId } from 'react';
import { formatMoney, parseMoney } from '../../domain/money';
import { RATE_LABEL, ratePercent, rateRange } from '../../domain/quote';
import type {
  BuyerCostResume,
  CorporateQuote,
  CorporateQuoteResume,
  QuoteCurrency,
} from '../../domain/schemas/corporates';
import type { QuotationInput, quotationMachine } from '../../machines/quotation.machine';
import { SectionHelp } from '../dashboard/section-help';
import { shownFolio } from '../invoices/invoice-columns';
import { formatDisplayDate } from '../invoices/invoice-format';
import './quotation.css';
import { MessageDialog } from '../invoices/message-dialog';

export const QUOTE_LOADING_TEXT = 'Cargando cotización…';
export const REMOVE_LINE_TEXT = 'Quitar';
export const CONTINUE_TEXT = 'Continuar';
export const IVA_INCLUDED_TEXT = 'IVA Incluido';
export const PAYER_QUESTION = '¿Quién absorbe el costo financiero?';
export const PROVIDER_PAYS_TEXT = 'El proveedor';
export const BUYER_PAYS_TEXT = 'El comprador';
export const ACCEPT_TEXT = 'Aceptar';
export const CANCEL_TEXT = 'Cancelar';
export const PAY_PROVIDERS_TEXT = 'Pagar a Proveedores';
export const REJECT_QUOTATION_TEXT = 'Rechazar Cotización';
export const RESUME_TITLE = 'Resumen de la cotización';
export const TOTALS_LABEL = 'Totales de la cotización';

const CURRENCIES: readonly QuoteCurrency[] = ['MXN', 'USD'];

/** An API amount ('6090.00') in its currency: '$6,090.00 USD'. */
const money = (amount: string, currency: QuoteCurrency): string => formatMoney(parseMoney(amount), currency);

/** The currencies the lines are in, MXN first: a total is shown only for a currency that has lines. */
function currenciesOf(lines: readonly { currency: QuoteCurrency }[]): QuoteCurrency[] {
  return CURRENCIES.filter((currency) => lines.some((line) => line.currency === currency));
}

const countOf = (lines: readonly { currency: QuoteCurrency }[], currency: QuoteCurrency) =>
  lines.filter((line) => line.currency === currency).length;

const invoicesText = (count: number) => (count === 1 ? '1 factura' : `${count} facturas`);
const daysText = (days: number) => (days === 1 ? '1 día' : `${days} días`);

/** The lines' column headings; on a narrow screen, the label over each value of a line's card. */
const LINE_LABELS = {
  amount: 'Monto',
  date: 'Fecha de pago',
  rate: `Tasa anual (${RATE_LABEL})`,
  financing: 'Costo financiero',
  consultancy: 'Asesoría (IVA incluido)',
  net: 'Neto al proveedor',
} as const;

function QuoteTable({
  quotes,
  disabled,
  onRemove,
}: {
  quotes: readonly CorporateQuote[];
  disabled: boolean;
  onRemove: (invoiceId: number) => void;
}) {
  return (
    // Below 1100 px each line reads as a card (quotation.css); the box takes focus so a keyboard can scroll a
    // table wider than it.
    // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard.
    <section className="flujo-quote-table" tabIndex={0} aria-label="Líneas de la cotización">
      <HTMLTable compact striped aria-label="Cotización por factura">
        <thead>
          <tr>
            <th scope="col">Folio y proveedor</th>
            <th scope="col">{LINE_LABELS.amount}</th>
            <th scope="col">{LINE_LABELS.date}</th>
            <th scope="col">
              Tasa anual <small>({RATE_LABEL})</small>
            </th>
            <th scope="col">{LINE_LABELS.financing}</th>
            <th scope="col">{LINE_LABELS.consultancy}</th>
            <th scope="col">{LINE_LABELS.net}</th>
            <th scope="col" className="flujo-quote-action">
              Acciones
            </th>
          </tr>
        </thead>
        <tbody>
          {quotes.map((quote) => (
            <tr key={quote.id}>
              <td className="flujo-quote-invoice">
                <strong>{shownFolio(quote)}</strong>
                <small className={Classes.TEXT_MUTED}>{quote.emitter_name}</small>
              </td>
              <td className="flujo-cell-amount" data-label={LINE_LABELS.amount}>
                {money(quote.amount, quote.currency)}
              </td>
              <td className="flujo-quote-date" data-label={LINE_LABELS.date}>
                {formatDisplayDate(quote.payment_date)}
                <small className={Classes.TEXT_MUTED}>{daysText(quote.remaining_days)}</small>
              </td>
              <td className="flujo-cell-amount" data-label={LINE_LABELS.rate}>
                {ratePercent(quote.annual_rate)}
              </td>
              <td className="flujo-cell-amount" data-label={LINE_LABELS.financing}>
                {money(quote.cost_financing, quote.currency)}
              </td>
              <td className="flujo-cell-amount" data-label={LINE_LABELS.consultancy}>
                {money(quote.cost_consultancy, quote.currency)}
                <small className={Classes.TEXT_MUTED}>IVA {money(quote.iva, quote.currency)}</small>
              </td>
              <td className="flujo-cell-amount flujo-quote-net" data-label={LINE_LABELS.net}>
                {money(quote.net_amount, quote.currency)}
              </td>
              <td className="flujo-quote-action">
                <Button
                  small
                  minimal
                  intent="danger"
                  text={REMOVE_LINE_TEXT}
                  aria-label={`${REMOVE_LINE_TEXT} ${shownFolio(quote)}`}
                  disabled={disabled}
                  onClick={() => onRemove(quote.id)}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </HTMLTable>
    </section>
  );
}

/** The figures every summary opens with: how many invoices and their rate, as the table shows it. */
function Headline({ lines }: { lines: readonly CorporateQuote[] }) {
  return (
    <div className="flujo-quote-headline">
      <dl>
        <div>
          <dt>Facturas</dt>
          <dd data-total="invoices">{lines.length}</dd>
        </div>
        <div>
          <dt>Tasa anual ({RATE_LABEL})</dt>
          <dd data-total="rate">{rateRange(lines.map((line) => line.annual_rate))}</dd>
        </div>
      </dl>
      <p className="flujo-quote-headline__note">{IVA_INCLUDED_TEXT}</p>
    </div>
  );
}

/** One currency's card: its main figure large, the parts that make it below. */
function CurrencyCard({
  currency,
  count,
  label,
  figure,
  parts,
}: {
  currency: QuoteCurrency;
  count: number;
  label: string;
  figure: string;
  parts: readonly { label: string; value: string; strong?: boolean }[];
}) {
  const titleId = useId();
  return (
    <Card className="flujo-quote-currency" aria-labelledby={titleId}>
      <h2 id={titleId} className="flujo-quote-currency__title">
        {currency} <span className={Classes.TEXT_MUTED}>· {invoicesText(count)}</span>
      </h2>
      <p className="flujo-quote-currency__label">{label}</p>
      <p className="flujo-quote-currency__figure" data-total={currency.toLowerCase()}>
        {figure}
      </p>
      <dl className="flujo-quote-currency__parts">
        {parts.map((part) => (
          <div key={part.label} className={part.strong ? 'is-strong' : undefined}>
            <dt>{part.label}</dt>
            <dd>{part.value}</dd>
          </div>
        ))}
      </dl>
    </Card>
  );
}

/** The quote's totals (the provider absorbs the cost unless the buyer says otherwise), one card per currency. */
function Totals({ lines, resume }: { lines: readonly CorporateQuote[]; resume: CorporateQuoteResume }) {
  const figures = (currency: QuoteCurrency) =>
    currency === 'MXN'
      ? {
          amount: resume.total_quote,
          financing: resume.total_financing,
          consultancy: resume.total_consultancy,
          net: resume.total_net,
        }
      : {
          amount: resume.total_quote_usd,
          financing: resume.total_financing_usd,
          consultancy: resume.total_consultancy_usd,
          net: resume.total_net_usd,
        };
  return (
    <section className="flujo-quote-summary" aria-label={TOTALS_LABEL}>
      <Headline lines={lines} />
      <div className="flujo-quote-currencies">
        {currenciesOf(lines).map((currency) => {
          const total = figures(currency);
          return (
            <CurrencyCard
              key={currency}
              currency={currency}
              count={countOf(lines, currency)}
              label="Monto de las facturas"
              figure={money(total.amount, currency)}
              parts={[
                { label: 'Costo financiero', value: money(total.financing, currency) },
                { label: 'Asesoría (IVA incluido)', value: money(total.consultancy, currency) },
                { label: 'Neto a proveedores', value: money(total.net, currency), strong: true },
              ]}
            />
          );
        })}
      </div>
    </section>
  );
}

/** The buyer's cost once it absorbs it (spec §3 variant B), one card per currency. */
function BuyerResume({ lines, resume }: { lines: readonly CorporateQuote[]; resume: BuyerCostResume }) {
  const figures = (currency: QuoteCurrency) =>
    currency === 'MXN'
      ? { total: resume.total, financing: resume.total_financing, consultancy: resume.total_consultancy }
      : {
          total: resume.total_usd,
          financing: resume.total_financing_usd,
          consultancy: resume.total_consultancy_usd,
        };
  return (
    <section className="flujo-quote-summary" aria-label={RESUME_TITLE}>
      <p>Absorbes el costo financiero: tus proveedores reciben el monto completo de sus facturas.</p>
      <Headline lines={lines} />
      <div className="flujo-quote-currencies">
        {currenciesOf(lines).map((currency) => {
          const cost = figures(currency);
          return (
            <CurrencyCard
              key={currency}
              currency={currency}
              count={countOf(lines, currency)}
              label="Costo a tu cargo"
              figure={money(cost.total, currency)}
              parts={[
                { label: 'Costo financiero', value: money(cost.financing, currency) },
                { label: 'Asesoría (IVA incluido)', value: money(cost.consultancy, currency) },
              ]}
            />
          );
        })}
      </div>
    </section>
  );
}

export interface QuotationPageProps {
  help: string;
  machine: typeof quotationMachine;
  input: QuotationInput;
}

/**
 * /dashboard/cotizacion/ (spec §2 'Cotización', "Quotation dialog", "Alert dialog"; decision 0028): the quote
 * of the saved pre-authorization, remove-line, totals in MXN and USD, who absorbs the cost, and the outcomes.
 */
export function QuotationPage({ help, machine, input }: QuotationPageProps) {
  const [state, send] = useMachine(machine, { input });
  const { quotes, resume, buyerResume, dialog } = state.context;
  const busy = state.hasTag('busy');
  const showQuote = resume !== null && !state.matches('loading');
  const dialogOpen =
    dialog !== null &&
    (state.matches('loadFailed') ||
      state.matches('refused') ||
      state.matches('resumeRefused') ||
      state.matches('preApproved') ||
      state.matches('paid') ||
      state.matches('rejected'));
  const inResume = state.matches('resume') || state.matches('paying') || state.matches('rejecting');

  return (
    <section aria-labelledby="cotizacion-titulo">
      <H1 id="cotizacion-titulo">Cotización</H1>
      <SectionHelp>{help}</SectionHelp>
      {state.matches('loading') && <Spinner size={40} aria-label={QUOTE_LOADING_TEXT} />}
      {showQuote && quotes.length === 0 && (
        <NonIdealState description={<h2 className="bp6-heading">No hay facturas para revisar</h2>} />
      )}
      {showQuote && quotes.length > 0 && (
        <>
          <QuoteTable
            quotes={quotes}
            disabled={!state.matches('quoted')}
            onRemove={(invoiceId) => send({ type: 'line.remove', invoiceId })}
          />
          <Totals lines={quotes} resume={resume} />
          {state.matches('quoted') && (
            <Button
              intent="primary"
              size="large"
              text={CONTINUE_TEXT}
              onClick={() => send({ type: 'payer.ask' })}
            />
          )}
        </>
      )}
      <Dialog
        isOpen={
          state.matches('choosingPayer') || state.matches('providerAbsorbs') || state.matches('preApproving')
        }
        title={PAYER_QUESTION}
        onClose={busy ? undefined : () => send({ type: 'payer.cancel' })}
        canEscapeKeyClose={!busy}
        canOutsideClickClose={!busy}
      >
        <div className={Classes.DIALOG_BODY}>
          {state.matches('choosingPayer') ? (
            <p>
              Si lo absorbe el proveedor, recibe el neto de la cotización; si lo absorbes tú, recibe el monto
              completo y tú pagas el costo financiero. {IVA_INCLUDED_TEXT}.
            </p>
          ) : (
            resume && (
              <p>
                El proveedor absorbe el costo financiero (
                {currenciesOf(quotes)
                  .map((currency) =>
                    money(currency === 'MXN' ? resume.total_financing : resume.total_financing_usd, currency),
                  )
                  .join(', ')}
                , {IVA_INCLUDED_TEXT}). Las facturas quedarán Autorizadas con su fecha de pago.
              </p>
            )
          )}
        </div>
        <div className={Classes.DIALOG_FOOTER}>
          <div className={Classes.DIALOG_FOOTER_ACTIONS}>
            <Button text={CANCEL_TEXT} disabled={busy} onClick={() => send({ type: 'payer.cancel' })} />
            {state.matches('choosingPayer') ? (
              <>
                <Button text={PROVIDER_PAYS_TEXT} onClick={() => send({ type: 'payer.provider' })} />
                <Button
                  intent="primary"
                  text={BUYER_PAYS_TEXT}
                  onClick={() => send({ type: 'payer.buyer' })}
                />
              </>
            ) : (
              <Button
                intent="primary"
                text={ACCEPT_TEXT}
                loading={state.matches('preApproving')}
                onClick={() => send({ type: 'quotation.accept' })}
              />
            )}
          </div>
        </div>
      </Dialog>
      <Dialog
        className="flujo-quote-dialog"
        isOpen={state.matches('accepting') || inResume}
        title={RESUME_TITLE}
        isCloseButtonShown={false}
      >
        <div className={Classes.DIALOG_BODY} aria-busy={busy}>
          {buyerResume ? (
            <BuyerResume lines={quotes} resume={buyerResume} />
          ) : (
            <Spinner size={30} aria-label={QUOTE_LOADING_TEXT} />
          )}
        </div>
        <div className={Classes.DIALOG_FOOTER}>
          <div className={Classes.DIALOG_FOOTER_ACTIONS}>
            <Button
              intent="danger"
              text={REJECT_QUOTATION_TEXT}
              disabled={!state.matches('resume')}
              loading={state.matches('rejecting')}
              onClick={() => send({ type: 'quotation.reject' })}
            />
            <Button
              intent="success"
              text={PAY_PROVIDERS_TEXT}
              disabled={!state.matches('resume')}
              loading={state.matches('paying')}
              onClick={() => send({ type: 'quotation.pay' })}
            />
          </div>
        </div>
      </Dialog>
      <MessageDialog
        isOpen={dialogOpen}
        loading={false}
        variant={dialog?.variant ?? 'info'}
        message={dialog?.messages ?? null}
        onClose={() => send({ type: 'dialog.close' })}
      />
    </section>
  );
}
