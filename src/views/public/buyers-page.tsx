import { Calculator, Document, Exchange, Inbox, Th, TickCircle } from '@blueprintjs/icons';
import { FaqAccordion, type FaqItem } from '../common/faq-accordion';
import { type Slide, SlideCarousel } from '../common/slide-carousel';
import { CallToAction, ClaimList, FeatureGrid, LinkButton, PageHero, Section, StepList } from './page-parts';

const GAINS: readonly Slide[] = [
  {
    title: 'Proveedores con liquidez, entregas a tiempo',
    body: (
      <p>
        Un proveedor que cobra a tiempo compra su materia prima a tiempo. El pronto pago reduce el riesgo de
        que un problema de caja de tu proveedor se convierta en un retraso en tu línea de producción.
      </p>
    ),
  },
  {
    title: 'Sin tocar tu caja ni tus plazos',
    body: (
      <p>
        Flujo adelanta el dinero a tus proveedores; tú pagas cada factura en la fecha de pago que ya tenías.
        Tu capital de trabajo queda igual.
      </p>
    ),
  },
  {
    title: 'Visibilidad de lo que debes',
    body: (
      <p>
        Ves en un solo tablero las facturas que te emiten tus proveedores, su estatus ante el SAT y cuáles
        pidieron adelanto. Tu estado de cuenta se descarga en un clic.
      </p>
    ),
  },
  {
    title: 'Un programa de proveedores que sí se usa',
    body: (
      <p>
        Tus proveedores se registran en minutos y eligen ellos mismos qué facturas adelantar. No depende de
        que tu equipo procese solicitudes una por una.
      </p>
    ),
  },
];

const FAQ: readonly FaqItem[] = [
  {
    question: '¿Cuánto le cuesta la alianza a mi empresa?',
    answer: (
      <p>
        Nada. El costo del adelanto lo paga el proveedor que decide adelantar. Solo si en una cotización
        eliges que tu empresa absorba el costo financiero para apoyar a un proveedor, ese costo se muestra
        antes de que aceptes.
      </p>
    ),
  },
  {
    question: '¿Cambian mis plazos o condiciones de pago?',
    answer: (
      <p>
        No. Pagas cada factura en la fecha de pago que tú autorizas, como lo haces hoy. Flujo no modifica tus
        contratos con tus proveedores.
      </p>
    ),
  },
  {
    question: '¿Cómo preautorizo facturas?',
    answer: (
      <p>
        Desde tu tablero: una por una, con la plantilla de Excel que descargas de la plataforma o con una
        carga masiva de XML en un archivo ZIP. A cada factura le asignas su fecha de pago y tus proveedores
        pueden adelantarla de inmediato.
      </p>
    ),
  },
  {
    question: '¿Qué pasa cuando un proveedor pide adelantar una factura que no preautoricé?',
    answer: (
      <p>
        La solicitud aparece en tu sección de solicitudes y tu proveedor sabe que le responderás en un máximo
        de 24 horas. La autorizas o la rechazas, y el proveedor recibe aviso en ambos casos.
      </p>
    ),
  },
  {
    question: '¿Qué información de mi empresa usa Flujo?',
    answer: (
      <p>
        Las facturas que te emiten tus proveedores aliados, que leemos del SAT con tu RFC y tu CIEC, y los
        datos de contacto de tu equipo. Consulta el{' '}
        <a href="/politicas-de-privacidad/">aviso de privacidad</a> y la{' '}
        <a href="/politica-de-proteccion-de-datos/">política de protección de datos</a>.
      </p>
    ),
  },
];

export function BuyersPage() {
  return (
    <div className="site-page--dark bp6-dark">
      <PageHero
        id="compradores-titulo"
        eyebrow="Para compradores"
        title="Fortalece a tus proveedores sin costo para tu empresa"
        lead="Con una alianza en Flujo tus proveedores cobran antes y tú conservas tus condiciones de pago. Tu empresa no paga nada por la alianza."
        actions={
          <>
            <LinkButton href="/alianzas-corporativas/">Crear una alianza</LinkButton>
            <LinkButton href="/requisitos/" variant="ghost">
              Ver requisitos
            </LinkButton>
          </>
        }
      />

      <Section id="compradores-cifras" title="La alianza en cifras" tone="surface">
        <ClaimList
          claims={[
            { value: '$0', label: 'de costo para tu empresa' },
            { value: '< 24 horas', label: 'para que tus proveedores adelanten facturas preautorizadas' },
            { value: '90 días', label: 'fechas de pago de hasta 90 días' },
            { value: '3 formas', label: 'de preautorizar: manual, plantilla de Excel o ZIP de XML' },
          ]}
        />
      </Section>

      <Section id="compradores-herramientas" title="Herramientas para tu tesorería">
        <FeatureGrid
          features={[
            {
              icon: <TickCircle size={20} />,
              title: 'Preautoriza facturas',
              text: 'Autoriza manualmente, con una plantilla de Excel o con una carga masiva de XML, y asigna la fecha de pago.',
            },
            {
              icon: <Inbox size={20} />,
              title: 'Revisa solicitudes',
              text: 'Tus proveedores piden adelantar facturas; tú autorizas o rechazas y ellos reciben aviso.',
            },
            {
              icon: <Calculator size={20} />,
              title: 'Cotiza pagos anticipados',
              text: 'Decide quién absorbe el costo financiero de una cotización: el proveedor o tu empresa.',
            },
            {
              icon: <Th size={20} />,
              title: 'Resumen de facturas',
              text: 'Busca por folio, RFC o proveedor y filtra por periodo y estatus todas las facturas que recibes.',
            },
            {
              icon: <Document size={20} />,
              title: 'Estado de cuenta',
              text: 'Consulta y descarga las facturas adelantadas que pagarás en cada fecha.',
            },
            {
              icon: <Exchange size={20} />,
              title: 'Cuentas por cobrar y por pagar',
              text: 'Si tu empresa también vende a crédito, cambia entre las vistas Cuentas por Cobrar y Cuentas por Pagar.',
            },
          ]}
        />
      </Section>

      <Section id="compradores-pasos" title="Cómo empiezas" tone="surface">
        <StepList
          steps={[
            {
              title: 'Firma la alianza',
              text: 'Revisamos la documentación de tu empresa y firmamos un convenio de alianza sin costo.',
            },
            {
              title: 'Vincula tu RFC',
              text: 'Con tu CIEC leemos las facturas que recibes de tus proveedores. No integras sistemas para empezar.',
            },
            {
              title: 'Invita a tus proveedores',
              text: 'Les avisamos de la alianza y los acompañamos en su registro.',
            },
            {
              title: 'Paga en la fecha de siempre',
              text: 'Tus proveedores cobran antes; tú liquidas cada factura en su fecha de pago.',
            },
          ]}
        />
      </Section>

      <div className="site-section">
        <div className="site-section__inner">
          <SlideCarousel id="compradores-carrusel" label="Lo que gana tu empresa" slides={GAINS} />
        </div>
      </div>

      <FaqAccordion id="compradores-preguntas" title="Preguntas de compradores" items={FAQ} />

      <CallToAction
        id="compradores-cta"
        title="Lleva liquidez a tu cadena de suministro"
        text="Cuéntanos cuántos proveedores tienes y cómo les pagas; te mostramos cómo quedaría tu alianza."
        actions={
          <>
            <LinkButton href="/solicitar-demo/">Solicitar demo</LinkButton>
            <LinkButton href="/contacto/" variant="ghost">
              Contacto
            </LinkButton>
          </>
        }
      />
    </div>
  );
}
