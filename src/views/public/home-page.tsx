import { BankAccount, Endorsed, Office, Shop } from '@blueprintjs/icons';
import { FaqAccordion, type FaqItem } from '../common/faq-accordion';
import { type Slide, SlideCarousel } from '../common/slide-carousel';
import {
  CallToAction,
  ClaimList,
  FeatureGrid,
  LinkButton,
  PageHero,
  PRODUCT_CLAIMS,
  Section,
  StepList,
} from './page-parts';
import { QuoteExample } from './quote-example';

// Spec §1: the four points of the login carousel are the case for factoring; the home page makes it too.
const WHY_FACTORING: readonly Slide[] = [
  {
    title: 'El factoraje no es un crédito',
    body: (
      <p>
        Cobras por adelantado una venta que ya hiciste: la factura que tu cliente va a pagar. No pides un
        préstamo ni dejas garantías.
      </p>
    ),
  },
  {
    title: 'Mejora tu flujo de efectivo sin deuda',
    body: (
      <p>
        Conviertes tus ventas a crédito en efectivo para pagar nómina, materia prima o impuestos sin contratar
        una deuda nueva.
      </p>
    ),
  },
  {
    title: 'Más rápido que un préstamo bancario',
    body: (
      <p>
        Sin semanas de trámite: te registras en menos de 10 minutos y, una vez autorizada la factura, recibes
        tu pago en menos de 2 horas.
      </p>
    ),
  },
  {
    title: 'Tú eliges qué facturas y cuándo',
    body: (
      <p>
        No hay mínimos ni contratos por volumen. Adelantas solo las facturas que quieras, en el momento en que
        las necesites.
      </p>
    ),
  },
];

const FAQ: readonly FaqItem[] = [
  {
    question: '¿Qué es el pronto pago?',
    answer: (
      <p>
        Es el pago anticipado de una factura que emitiste a una empresa compradora. En lugar de esperar 30, 60
        o 90 días a que tu cliente pague, Flujo te deposita hoy el monto de la factura menos su costo, y tu
        cliente paga la factura en la fecha acordada.
      </p>
    ),
  },
  {
    question: '¿Cuánto cuesta adelantar una factura?',
    answer: (
      <p>
        Pagas un costo financiero proporcional a los días que adelantas, calculado con una tasa anual que
        mostramos como «tasa + IVA», y una comisión por asesoría del 1 % + IVA sobre el monto de la factura.
        Ves ambos importes y el monto que recibirás antes de confirmar. Pruébalo en la{' '}
        <a href="/calculadora/">calculadora</a>.
      </p>
    ),
  },
  {
    question: '¿Mi cliente tiene que estar en Flujo?',
    answer: (
      <p>
        Sí. Adelantamos facturas emitidas a empresas que tienen una alianza con Flujo. Si tu cliente todavía
        no la tiene, invítalo desde tu cuenta o compártenos su contacto: para él la alianza no tiene costo.
      </p>
    ),
  },
  {
    question: '¿Qué pasa si una factura se cancela?',
    answer: (
      <p>
        Antes de pagar verificamos ante el SAT que cada CFDI siga vigente. Una factura cancelada sale de tu
        lista y ya no puede adelantarse.
      </p>
    ),
  },
  {
    question: '¿Qué necesito para registrarme?',
    answer: (
      <p>
        Tus datos de contacto y la razón social de tu empresa para crear la cuenta. Para adelantar facturas,
        vincula tu RFC con tu CIEC del SAT y registra la cuenta CLABE a nombre de tu empresa donde recibirás
        los depósitos.
      </p>
    ),
  },
];

export function HomePage() {
  return (
    <>
      <PageHero
        id="inicio-titulo"
        eyebrow="Pronto pago y factoraje en México"
        title="Cobra tus facturas hoy, sin deuda"
        lead={
          <>
            Flujo adelanta el pago de las facturas que emites a grandes empresas. Tú eliges qué facturas
            cobrar antes y cuándo; tu cliente conserva sus condiciones de pago y, para él, la alianza no tiene
            costo.
          </>
        }
        actions={
          <>
            <LinkButton href="/solicitar-demo/">Solicitar demo</LinkButton>
            <LinkButton href="/calculadora/" variant="ghost">
              Calcula tu adelanto
            </LinkButton>
          </>
        }
        aside={
          <QuoteExample amount="250000.00" maxRate="17.40" days={60} customer="una cadena de alimentos" />
        }
      />

      <Section
        id="inicio-rapidez"
        title="Rápido de verdad"
        intro="Diseñamos cada paso para que el dinero llegue cuando lo necesitas, no cuando termina el trámite."
        tone="surface"
      >
        <ClaimList claims={PRODUCT_CLAIMS} />
      </Section>

      <Section id="inicio-como-funciona" title="Cómo funciona">
        <StepList
          steps={[
            {
              title: 'Regístrate y vincula tu RFC',
              text: 'Con tu CIEC del SAT importamos las facturas que emites a tus clientes aliados; no tienes que capturarlas.',
            },
            {
              title: 'Elige qué facturas adelantar',
              text: 'Antes de confirmar ves el costo financiero, la comisión y el monto exacto que recibirás.',
            },
            {
              title: 'Recibe tu dinero',
              text: 'Depositamos en tu cuenta CLABE. En la fecha de pago, tu cliente paga la factura como siempre.',
            },
          ]}
        />
      </Section>

      <Section
        id="inicio-para-quien"
        title="Una plataforma, dos lados de la factura"
        intro="Flujo une a quien vende a crédito con quien compra a crédito, y cada uno gana algo distinto."
        tone="surface"
      >
        <FeatureGrid
          features={[
            {
              icon: <Shop size={20} />,
              title: 'Para proveedores',
              text: (
                <>
                  Cobra antes las facturas de tus clientes corporativos, con fechas de pago de hasta 90 días y
                  sin endeudarte. <a href="/proveedores/">Conoce los beneficios para proveedores</a>.
                </>
              ),
            },
            {
              icon: <Office size={20} />,
              title: 'Para compradores',
              text: (
                <>
                  Preautoriza facturas, revisa solicitudes de adelanto y fortalece a tu cadena de suministro
                  sin costo. <a href="/compradores/">Conoce los beneficios para compradores</a>.
                </>
              ),
            },
            {
              icon: <Endorsed size={20} />,
              title: 'Alianzas corporativas',
              text: (
                <>
                  Una alianza conecta a tu empresa con sus proveedores en Flujo en pocos días.{' '}
                  <a href="/alianzas-corporativas/">Cómo funciona una alianza</a>.
                </>
              ),
            },
            {
              icon: <BankAccount size={20} />,
              title: 'Factoraje revolvente',
              text: 'Si necesitas liquidez recurrente, solicita una línea de factoraje y págala en 1 a 4 mensualidades.',
            },
          ]}
        />
      </Section>

      <div className="site-section">
        <div className="site-section__inner">
          <SlideCarousel id="inicio-carrusel" label="Por qué elegir factoraje" slides={WHY_FACTORING} />
        </div>
      </div>

      <FaqAccordion id="inicio-preguntas" title="Preguntas frecuentes" items={FAQ} />

      <CallToAction
        id="inicio-cta"
        title="¿Listo para cobrar antes?"
        text="Un especialista te muestra cómo funciona Flujo con casos como el tuyo y resuelve tus dudas."
        actions={
          <>
            <LinkButton href="/solicitar-demo/">Solicitar demo</LinkButton>
            <LinkButton href="/auth/registro/" variant="ghost">
              Crear cuenta
            </LinkButton>
          </>
        }
      />
    </>
  );
}
