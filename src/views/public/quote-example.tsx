import { formatCurrency, parseMoney } from '../../domain/money';
import { advanceQuote, displayedAnnualRate, RATE_LABEL } from '../../domain/quote';

/**
 * An illustrative quote card, computed by the same domain functions as the dashboard and the calculator,
 * so the marketing figures can never drift from what the platform charges.
 */
export function QuoteExample({
  amount,
  maxRate,
  days,
  customer,
}: {
  /** Invoice amount as a decimal text, e.g. '250000.00'. */
  amount: string;
  /** Stored annual rate, IVA included (spec §3 max_rate). */
  maxRate: string;
  days: number;
  customer: string;
}) {
  const invoice = parseMoney(amount);
  const quote = advanceQuote({ amount: invoice, maxRate, days });
  return (
    <figure className="site-quote-card" aria-labelledby="ejemplo-cotizacion">
      <figcaption id="ejemplo-cotizacion">
        <strong>Ejemplo ilustrativo</strong> · factura a {customer}
      </figcaption>
      <dl>
        <dt>Monto de la factura</dt>
        <dd>{formatCurrency(invoice, 'MXN')}</dd>
        <dt>Días para la fecha de pago</dt>
        <dd>{days}</dd>
        <dt>Tasa anual</dt>
        <dd>
          {displayedAnnualRate(maxRate)} % {RATE_LABEL}
        </dd>
        <dt>Costo financiero</dt>
        <dd>−{formatCurrency(quote.costFinancing, 'MXN')}</dd>
        <dt>Comisión por asesoría (1 % + IVA)</dt>
        <dd>−{formatCurrency(quote.costConsultancy, 'MXN')}</dd>
        <dt>Recibes hoy</dt>
        <dd className="site-quote-card__total">{formatCurrency(quote.total, 'MXN')}</dd>
      </dl>
    </figure>
  );
}
