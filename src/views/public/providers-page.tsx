import { BankAccount, Download, Flash, Link, NewPerson, Percentage } from '@blueprintjs/icons';
import { FaqAccordion, type FaqItem } from '../common/faq-accordion';
import { type Slide, SlideCarousel } from '../common/slide-carousel';
import { Static } from '../common/static-html';
import { CallToAction, FeatureGrid, LinkButton, PageHero, Section, StepList } from './page-parts';
import { QuoteExample } from './quote-example';

// Clearly illustrative: the companies are made up and the figures only show how suppliers use Flujo.
const CASES: readonly Slide[] = [
  {
    title: 'Temporada alta sin pedir prestado',
    body: (
      <p>
        Un fabricante de empaques en Querétaro vende a una cadena de alimentos a 60 días. Antes de la
        temporada navideña adelanta solo las facturas que necesita para comprar cartón y cubrir horas extra, y
        deja el resto a su plazo normal. <em>Caso ilustrativo.</em>
      </p>
    ),
  },
  {
    title: 'Nómina a tiempo, cliente a 90 días',
    body: (
      <p>
        Una empresa de limpieza industrial en Monterrey factura cada mes a una planta automotriz que paga a 90
        días. Adelanta una factura el día 25 para pagar la nómina de fin de mes y su cliente la paga en la
        fecha de siempre. <em>Caso ilustrativo.</em>
      </p>
    ),
  },
  {
    title: 'Un pedido más grande que su capital de trabajo',
    body: (
      <p>
        Un distribuidor de refacciones en Guadalajara recibe un pedido tres veces mayor que el habitual. Con
        su línea de factoraje financia la compra y la paga en cuatro mensualidades conforme cobra.{' '}
        <em>Caso ilustrativo.</em>
      </p>
    ),
  },
];

const FAQ: readonly FaqItem[] = [
  {
    question: '¿Qué facturas puedo adelantar?',
    answer: (
      <p>
        Facturas electrónicas (CFDI 4.0) de ingreso, vigentes ante el SAT, emitidas por tu empresa a un
        cliente con alianza en Flujo y pendientes de pago. Como el adelanto se liquida después, la factura
        debe emitirse con método de pago PPD (pago en parcialidades o diferido).
      </p>
    ),
  },
  {
    question: '¿Cuánto recibo por una factura?',
    answer: (
      <p>
        El monto de la factura menos dos conceptos: el costo financiero (la tasa anual por los días que faltan
        para la fecha de pago, sobre un año de 360 días) y la comisión por asesoría del 1 % + IVA. Haz la
        cuenta con tus propios montos en la <a href="/calculadora/">calculadora</a>.
      </p>
    ),
  },
  {
    question: '¿Cuándo llega el dinero?',
    answer: (
      <p>
        Si tu cliente ya preautorizó la factura, la adelantas en menos de 24 horas. Si no, le avisamos de tu
        solicitud y responde dentro de las siguientes 24 horas. Una vez autorizada, el depósito llega a tu
        cuenta CLABE en menos de 2 horas.
      </p>
    ),
  },
  {
    question: '¿Tengo que adelantar todas mis facturas?',
    answer: (
      <p>
        No. Eliges factura por factura. Las que no adelantes siguen su curso normal y tu cliente te las paga
        en la fecha acordada.
      </p>
    ),
  },
  {
    question: '¿Qué diferencia hay entre pronto pago y factoraje?',
    answer: (
      <p>
        Con el pronto pago cobras hoy una factura que tu cliente pagará en su fecha. El factoraje es una línea
        revolvente: recibes el monto de tus facturas menos la comisión por asesoría y lo pagas en 1 a 4
        mensualidades (a 30, 60, 90 o 120 días); al pagar, vuelves a disponer de la línea.
      </p>
    ),
  },
  {
    question: '¿Es seguro compartir mi CIEC?',
    answer: (
      <p>
        Tu CIEC se guarda cifrada y solo se usa para leer las facturas que emites a tus clientes aliados.
        Puedes revocar la vinculación cuando quieras cambiando tu contraseña en el portal del SAT. Lee nuestra{' '}
        <a href="/politica-de-proteccion-de-datos/">política de protección de datos</a>.
      </p>
    ),
  },
];

export function ProvidersPage() {
  return (
    <>
      <PageHero
        id="proveedores-titulo"
        eyebrow="Para proveedores"
        title="Adelanta tus facturas y mejora tu flujo de efectivo"
        lead="Si vendes a crédito a grandes empresas, Flujo te paga hoy las facturas que tu cliente pagaría en 30, 60 o 90 días. Sin deuda, sin garantías y sin cambiar tu relación con tu cliente."
        actions={
          <>
            <LinkButton href="/auth/registro/">Crear cuenta</LinkButton>
            <LinkButton href="/calculadora/" variant="ghost">
              Calcula tu adelanto
            </LinkButton>
          </>
        }
        aside={<QuoteExample amount="85000.00" maxRate="19.72" days={30} customer="una planta automotriz" />}
      />

      <Section id="proveedores-beneficios" title="Lo que obtienes con Flujo" tone="surface">
        <FeatureGrid
          features={[
            {
              icon: <Flash size={20} />,
              title: 'Pronto pago',
              text: 'Adelanta facturas emitidas a tus clientes aliados y conoce el monto exacto que recibes antes de confirmar.',
            },
            {
              icon: <BankAccount size={20} />,
              title: 'Factoraje revolvente',
              text: 'Con una línea de factoraje pagas en 1 a 4 mensualidades y vuelves a disponer conforme pagas.',
            },
            {
              icon: <Percentage size={20} />,
              title: 'Tasa preferencial',
              text: 'Tu tasa se basa en el historial de pago de tu cliente corporativo, no solo en el de tu empresa.',
            },
            {
              icon: <Link size={20} />,
              title: 'Vinculación con el SAT',
              text: 'Con tu RFC y tu CIEC importamos tus CFDI emitidos a clientes aliados. No capturas facturas a mano.',
            },
            {
              icon: <Download size={20} />,
              title: 'Todo en un solo lugar',
              text: 'Consulta saldos pendientes y fechas de pago, sigue el estatus de cada factura y descarga su XML o PDF.',
            },
            {
              icon: <NewPerson size={20} />,
              title: 'Refiere a tus clientes',
              text: '¿Tu cliente aún no está en Flujo? Invítalo desde tu cuenta: para él la alianza no tiene costo.',
            },
          ]}
        />
      </Section>

      <Section id="proveedores-pasos" title="De la factura al depósito en cuatro pasos">
        <StepList
          steps={[
            {
              title: 'Crea tu cuenta',
              text: 'Nombre, correo, teléfono y razón social. Toma menos de 10 minutos.',
            },
            {
              title: 'Vincula tu RFC',
              text: 'Con tu CIEC traemos las facturas que emitiste a tus clientes aliados, con su fecha de emisión y monto.',
            },
            {
              title: 'Solicita el adelanto',
              text: 'Selecciona facturas y confirma en 3 clics. Tu cliente autoriza las que no estaban preautorizadas.',
            },
            {
              title: 'Recibe el depósito',
              text: 'El dinero llega a tu cuenta CLABE en menos de 2 horas después de la autorización.',
            },
          ]}
        />
      </Section>

      <Section
        id="proveedores-requisitos"
        title="Qué necesitas"
        intro="Pocas cosas, y todas las tienes a la mano."
        tone="surface"
      >
        <Static className="site-two-columns">
          <div>
            <h3>Para registrarte</h3>
            <ul className="site-checklist">
              <li>Nombre y apellido de quien administrará la cuenta.</li>
              <li>Correo electrónico y teléfono móvil.</li>
              <li>Razón social de tu empresa.</li>
            </ul>
          </div>
          <div>
            <h3>Para adelantar facturas</h3>
            <ul className="site-checklist">
              <li>RFC de tu empresa y su CIEC (contraseña del SAT).</li>
              <li>Una cuenta bancaria con CLABE a nombre de tu empresa.</li>
              <li>Facturas CFDI 4.0 vigentes emitidas a un cliente con alianza en Flujo.</li>
            </ul>
          </div>
        </Static>
      </Section>

      <div className="site-section">
        <div className="site-section__inner">
          <SlideCarousel id="proveedores-casos" label="Así usan Flujo los proveedores" slides={CASES} />
        </div>
      </div>

      <FaqAccordion id="proveedores-preguntas" title="Preguntas de proveedores" items={FAQ} />

      <CallToAction
        id="proveedores-cta"
        title="Cobra la próxima factura sin esperar"
        text="Crea tu cuenta hoy o pide que un especialista te acompañe en tu primer adelanto."
        actions={
          <>
            <LinkButton href="/auth/registro/">Crear cuenta</LinkButton>
            <LinkButton href="/solicitar-demo/" variant="ghost">
              Solicitar demo
            </LinkButton>
          </>
        }
      />
    </>
  );
}
