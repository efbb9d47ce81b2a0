import { useId, useState } from 'react';
import { Static } from '../common/static-html';
import { useHydrated } from '../common/use-hydrated';
import {
  CALCULATOR_RATES,
  type CalculatorResult,
  calculatorResult,
  DEFAULT_CALCULATOR_RATE,
  MAX_CALCULATOR_DAYS,
  rateLabel,
} from './calculator-figures';
import { LinkButton, PageHero, Section } from './page-parts';

/** Today in the visitor's time zone, as the API writes dates (YYYY-MM-DD). */
function localToday(): string {
  const now = new Date();
  const pad = (value: number) => String(value).padStart(2, '0');
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

function Results({ result }: { result: CalculatorResult }) {
  if (!result.ok) {
    return <p className="site-note">Completa los datos para ver tu adelanto.</p>;
  }
  const { figures } = result;
  return (
    <dl>
      <dt>Monto de la factura</dt>
      <dd>{figures.invoice}</dd>
      <dt>Plazo</dt>
      <dd>{figures.days === 1 ? '1 día' : `${figures.days} días`}</dd>
      <dt>Tasa anual</dt>
      <dd>{figures.rate}</dd>
      <dt>Costo financiero</dt>
      <dd>−{figures.costFinancing}</dd>
      <dt>Comisión por asesoría (1 % + IVA)</dt>
      <dd>−{figures.costConsultancy}</dd>
      <dt>Recibes hoy</dt>
      <dd className="site-result__total">{figures.total}</dd>
    </dl>
  );
}

/**
 * The public early-payment calculator. Every figure comes from calculatorResult, which only calls the
 * domain's quote functions, so it shows what the dashboard would quote for the same inputs.
 */
export function CalculatorPage() {
  const ids = useId();
  const hydrated = useHydrated();
  const [amount, setAmount] = useState('250000.00');
  const [maxRate, setMaxRate] = useState<string>(DEFAULT_CALCULATOR_RATE);
  const [termKind, setTermKind] = useState<'days' | 'date'>('days');
  const [days, setDays] = useState('45');
  const [paymentDate, setPaymentDate] = useState('');
  // The date mode needs the visitor's today, which the prerendered page cannot know.
  const today = hydrated ? localToday() : '';
  const result = calculatorResult({
    amount,
    maxRate,
    term: termKind === 'days' ? { kind: 'days', days } : { kind: 'date', paymentDate, today },
  });
  const amountError = !result.ok && result.field === 'amount' ? result.message : undefined;
  const daysError = !result.ok && result.field === 'days' ? result.message : undefined;
  const field = (name: string) => `${ids}-${name}`;

  return (
    <>
      <PageHero
        id="calculadora-titulo"
        eyebrow="Calculadora"
        title="¿Cuánto recibes hoy por tu factura?"
        lead="Escribe el monto, el plazo y la tasa anual. Usamos el mismo cálculo que la plataforma: costo financiero por los días que adelantas y una comisión por asesoría del 1 % + IVA."
      />
      <Section id="calculadora-simulador" title="Simula tu adelanto" tone="surface">
        <div className="site-calculator">
          <form
            className="site-form-panel"
            aria-labelledby="calculadora-simulador"
            onSubmit={(e) => e.preventDefault()}
          >
            <div className="site-field">
              <label htmlFor={field('monto')}>Monto de la factura (MXN)</label>
              <input
                id={field('monto')}
                className="site-input"
                inputMode="decimal"
                autoComplete="off"
                value={amount}
                onChange={(event) => setAmount(event.target.value)}
                required
                aria-invalid={amountError ? true : undefined}
                aria-describedby={field('monto-ayuda')}
              />
              <span
                id={field('monto-ayuda')}
                className={amountError ? 'site-field__error' : 'site-field__hint'}
              >
                {amountError ?? 'El total de la factura con IVA, como aparece en el CFDI.'}
              </span>
            </div>
            <div className="site-field">
              <fieldset>
                <legend>Plazo</legend>
                <div className="site-radio-row">
                  <label>
                    <input
                      type="radio"
                      name={field('plazo')}
                      checked={termKind === 'days'}
                      onChange={() => setTermKind('days')}
                    />
                    Días hasta el pago
                  </label>
                  <label>
                    <input
                      type="radio"
                      name={field('plazo')}
                      checked={termKind === 'date'}
                      onChange={() => setTermKind('date')}
                    />
                    Fecha de pago
                  </label>
                </div>
              </fieldset>
              {termKind === 'days' ? (
                <>
                  <label htmlFor={field('dias')} className="site-field__sublabel">
                    Días para la fecha de pago
                  </label>
                  <input
                    id={field('dias')}
                    className="site-input"
                    type="number"
                    inputMode="numeric"
                    min={1}
                    max={MAX_CALCULATOR_DAYS}
                    value={days}
                    onChange={(event) => setDays(event.target.value)}
                    required
                    aria-invalid={daysError ? true : undefined}
                    aria-describedby={field('plazo-ayuda')}
                  />
                </>
              ) : (
                <>
                  <label htmlFor={field('fecha')} className="site-field__sublabel">
                    Fecha de pago de la factura
                  </label>
                  <input
                    id={field('fecha')}
                    className="site-input"
                    type="date"
                    min={today || undefined}
                    value={paymentDate}
                    onChange={(event) => setPaymentDate(event.target.value)}
                    required
                    aria-invalid={daysError ? true : undefined}
                    aria-describedby={field('plazo-ayuda')}
                  />
                </>
              )}
              <span
                id={field('plazo-ayuda')}
                className={daysError ? 'site-field__error' : 'site-field__hint'}
              >
                {daysError ?? `Hasta ${MAX_CALCULATOR_DAYS} días.`}
              </span>
            </div>
            <div className="site-field">
              <label htmlFor={field('tasa')}>Tasa anual</label>
              <select
                id={field('tasa')}
                className="site-select"
                value={maxRate}
                onChange={(event) => setMaxRate(event.target.value)}
                aria-describedby={field('tasa-ayuda')}
              >
                {CALCULATOR_RATES.map((rate) => (
                  <option key={rate} value={rate}>
                    {rateLabel(rate)}
                  </option>
                ))}
              </select>
              <span id={field('tasa-ayuda')} className="site-field__hint">
                Tasas ilustrativas: la tuya depende de la alianza con tu cliente y la ves antes de confirmar.
              </span>
            </div>
          </form>
          <section className="site-result" aria-live="polite" aria-labelledby={field('resultado')}>
            <h3 id={field('resultado')}>Tu adelanto</h3>
            <Results result={result} />
          </section>
        </div>
      </Section>
      <Section id="calculadora-como" title="Cómo se calcula">
        <Static>
          <ul className="site-checklist">
            <li>
              <strong>Costo financiero</strong> = monto de la factura × tasa anual × días hasta la fecha de
              pago ÷ 360.
            </li>
            <li>
              <strong>Comisión por asesoría</strong> = 1 % del monto de la factura, más IVA (16 %).
            </li>
            <li>
              <strong>Recibes hoy</strong> = monto de la factura − costo financiero − comisión por asesoría.
            </li>
            <li>
              La tasa se muestra como «tasa + IVA»: una tasa de 15.00 % tasa + IVA equivale a 17.40 % con IVA
              incluido, que es la que se aplica en el costo financiero.
            </li>
          </ul>
          <p className="site-note">
            Cada importe se redondea al centavo una sola vez. Las cifras de esta página son ilustrativas y no
            son una oferta; en la plataforma ves la cotización exacta antes de confirmar cada adelanto.
          </p>
          <div className="site-actions">
            <LinkButton href="/auth/registro/">Crear cuenta</LinkButton>
            <LinkButton href="/solicitar-demo/" variant="ghost">
              Solicitar demo
            </LinkButton>
          </div>
        </Static>
      </Section>
    </>
  );
}
