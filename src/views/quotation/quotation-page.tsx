import { Button, Classes, Dialog, H1, HTMLTable, NonIdealState, Spinner } from '@blueprintjs/core';
import { useMachine } from '@xstate/react';
import type { BuyerCostResume, CorporateQuote, CorporateQuoteResume } from '../../domain/schemas/corporates';
import type { QuotationInput, quotationMachine } from '../../machines/quotation.machine';
import { SectionHelp } from '../dashboard/section-help';
import { shownFolio } from '../invoices/invoice-columns';
import { formatAmount, formatDisplayDate } from '../invoices/invoice-format';
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
    <div className="flujo-quote-table">
      <HTMLTable compact striped aria-label="Cotización por factura">
        <thead>
          <tr>
            <th scope="col">Folio</th>
            <th scope="col">Proveedor</th>
            <th scope="col">Moneda</th>
            <th scope="col">Monto</th>
            <th scope="col">Fecha de pago</th>
            <th scope="col">Días</th>
            <th scope="col">Tasa anual (tasa + IVA)</th>
            <th scope="col">Costo financiero</th>
            <th scope="col">Asesoría</th>
            <th scope="col">IVA</th>
            <th scope="col">Neto al proveedor</th>
            <th scope="col">Acciones</th>
          </tr>
        </thead>
        <tbody>
          {quotes.map((quote) => (
            <tr key={quote.id}>
              <td>{shownFolio(quote)}</td>
              <td>{quote.emitter_name}</td>
              <td>{quote.currency}</td>
              <td className="flujo-cell-amount">{formatAmount(quote.amount)}</td>
              <td>{formatDisplayDate(quote.payment_date)}</td>
              <td>{quote.remaining_days}</td>
              <td>{quote.annual_rate}%</td>
              <td className="flujo-cell-amount">{formatAmount(quote.cost_financing)}</td>
              <td className="flujo-cell-amount">{formatAmount(quote.cost_consultancy)}</td>
              <td className="flujo-cell-amount">{formatAmount(quote.iva)}</td>
              <td className="flujo-cell-amount">{formatAmount(quote.net_amount)}</td>
              <td>
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
    </div>
  );
}

function Totals({ resume }: { resume: CorporateQuoteResume }) {
  return (
    <section className="flujo-quote-totals" aria-label={TOTALS_LABEL}>
      <dl>
        <div>
          <dt>Facturas</dt>
          <dd data-total="invoices">{resume.total_invoices}</dd>
        </div>
        <div>
          <dt>Total MXN</dt>
          <dd data-total="mxn">{formatAmount(resume.total_quote)}</dd>
        </div>
        <div>
          <dt>Total USD</dt>
          <dd data-total="usd">{formatAmount(resume.total_quote_usd)}</dd>
        </div>
        <div>
          <dt>Costo financiero MXN</dt>
          <dd>{formatAmount(resume.total_financing)}</dd>
        </div>
        <div>
          <dt>Costo financiero USD</dt>
          <dd>{formatAmount(resume.total_financing_usd)}</dd>
        </div>
      </dl>
      <p className={Classes.TEXT_MUTED}>{IVA_INCLUDED_TEXT}</p>
    </section>
  );
}

function BuyerResume({ resume }: { resume: BuyerCostResume }) {
  return (
    <section className="flujo-quote-totals" aria-label={RESUME_TITLE}>
      <dl>
        <div>
          <dt>Facturas</dt>
          <dd>{resume.total_invoices}</dd>
        </div>
        <div>
          <dt>Tasa anual</dt>
          <dd>{resume.rate}%</dd>
        </div>
        <div>
          <dt>Costo a tu cargo MXN</dt>
          <dd>{formatAmount(resume.total)}</dd>
        </div>
        <div>
          <dt>Costo a tu cargo USD</dt>
          <dd>{formatAmount(resume.total_usd)}</dd>
        </div>
      </dl>
      <p className={Classes.TEXT_MUTED}>{IVA_INCLUDED_TEXT}</p>
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
          <Totals resume={resume} />
          {state.matches('quoted') && (
            <Button intent="primary" text={CONTINUE_TEXT} onClick={() => send({ type: 'payer.ask' })} />
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
                El proveedor absorbe el costo financiero ({formatAmount(resume.total_financing)} MXN,{' '}
                {formatAmount(resume.total_financing_usd)} USD, {IVA_INCLUDED_TEXT}). Las facturas quedarán
                Autorizadas con su fecha de pago.
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
      <Dialog isOpen={state.matches('accepting') || inResume} title={RESUME_TITLE} isCloseButtonShown={false}>
        <div className={Classes.DIALOG_BODY} aria-busy={busy}>
          {buyerResume ? (
            <BuyerResume resume={buyerResume} />
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
