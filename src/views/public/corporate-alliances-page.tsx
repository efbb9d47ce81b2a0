import type { demoRequestMachine } from '../../machines/demo-request.machine';
import { FaqAccordion, type FaqItem } from '../common/faq-accordion';
import { type Slide, SlideCarousel } from '../common/slide-carousel';
import { Static } from '../common/static-html';
import { DemoRequestForm } from './demo-request-form';
import { ClaimList, LinkButton, PageHero, Section, StepList } from './page-parts';

const ALLIANCE_MOMENTS: readonly Slide[] = [
  {
    title: 'Documentación y convenio',
    body: (
      <p>
        Nos envías la documentación de la lista de requisitos y revisamos juntos el convenio de alianza. No
        hay costo de alta ni de mantenimiento.
      </p>
    ),
  },
  {
    title: 'Vinculación y primeras facturas',
    body: (
      <p>
        Vinculas el RFC de tu empresa, tu equipo de tesorería recibe sus accesos y preautoriza el primer grupo
        de facturas con la plantilla de Excel o con un ZIP de XML.
      </p>
    ),
  },
  {
    title: 'Tus proveedores cobran antes',
    body: (
      <p>
        Invitamos a los proveedores que elijas. Se registran en menos de 10 minutos y adelantan las facturas
        preautorizadas en menos de 24 horas.
      </p>
    ),
  },
];

const FAQ: readonly FaqItem[] = [
  {
    question: '¿Qué firma mi empresa?',
    answer: (
      <p>
        Un convenio de alianza en el que tu empresa se compromete a pagar en su fecha las facturas que
        autoriza para adelanto, y Flujo a tratar tu información según nuestro{' '}
        <a href="/politicas-de-privacidad/">aviso de privacidad</a>. No firmas un crédito ni una garantía.
      </p>
    ),
  },
  {
    question: '¿Tengo que invitar a todos mis proveedores?',
    answer: (
      <p>
        No. Tú eliges a quién invitar. Muchas empresas empiezan con los proveedores estratégicos o con los que
        más resienten los plazos de pago largos.
      </p>
    ),
  },
  {
    question: '¿Necesito integrar mi ERP?',
    answer: (
      <p>
        No para empezar. Las facturas llegan desde el SAT con tu vinculación y las preautorizas desde el
        tablero, con la plantilla de Excel o con un ZIP de XML exportado de tu sistema.
      </p>
    ),
  },
  {
    question: '¿Quién paga el adelanto?',
    answer: (
      <p>
        El proveedor que decide adelantar una factura. En una cotización tu empresa puede elegir absorber el
        costo financiero para apoyar a un proveedor; es opcional y ves el costo antes de aceptarlo.
      </p>
    ),
  },
];

/** The alliances page (spec §2: dark, new design); its corporate demo form now submits (source recorded). */
export function CorporateAlliancesPage({ demoMachine }: { demoMachine: typeof demoRequestMachine }) {
  return (
    <div className="site-page--dark bp6-dark">
      <PageHero
        id="alianzas-titulo"
        eyebrow="Alianzas corporativas"
        title="Liquidez para tu cadena de suministro, sin costo para tu empresa"
        lead="Una alianza con Flujo permite que tus proveedores cobren antes las facturas que ya autorizaste, mientras tú las pagas en la fecha de siempre."
        actions={
          <>
            <LinkButton href="#alianzas-demo">Solicitar demo</LinkButton>
            <LinkButton href="/requisitos/" variant="ghost">
              Requisitos para la alianza
            </LinkButton>
          </>
        }
      />

      <Section id="alianzas-cifras" title="Por qué las empresas crean una alianza" tone="surface">
        <ClaimList
          claims={[
            { value: '$0', label: 'de alta y de mantenimiento para tu empresa' },
            { value: '< 10 min', label: 'para que un proveedor se registre' },
            { value: '< 2 horas', label: 'para que reciba su pago' },
            { value: '90 días', label: 'fechas de pago de hasta 90 días' },
          ]}
        />
      </Section>

      <Section id="alianzas-como" title="Cómo funciona una alianza">
        <StepList
          steps={[
            {
              title: 'Convenio',
              text: 'Firmamos un convenio de alianza sin costo y sin obligaciones de volumen.',
            },
            {
              title: 'Vinculación',
              text: 'Vinculas el RFC de tu empresa para que las facturas de tus proveedores aparezcan en tu tablero.',
            },
            {
              title: 'Preautorización',
              text: 'Tu tesorería autoriza facturas y les asigna fecha de pago, una por una o de forma masiva.',
            },
            {
              title: 'Pago en fecha',
              text: 'Tus proveedores adelantan lo que necesitan y tú pagas cada factura en su fecha.',
            },
          ]}
        />
      </Section>

      <div className="site-section site-section--surface">
        <div className="site-section__inner">
          <SlideCarousel
            id="alianzas-carrusel"
            label="Así se pone en marcha una alianza"
            slides={ALLIANCE_MOMENTS}
          />
        </div>
      </div>

      <Section
        id="alianzas-demo"
        title="Solicita una demostración para tu empresa"
        intro="Déjanos tus datos y un especialista en alianzas te contactará para conocer a tu cadena de suministro y mostrarte la plataforma."
      >
        <div className="site-two-columns">
          <div className="site-form-panel">
            <DemoRequestForm machine={demoMachine} />
          </div>
          <Static>
            <h3>En la demostración</h3>
            <ul className="site-checklist">
              <li>Vemos cómo pagas hoy a tus proveedores y qué plazos manejas.</li>
              <li>Te mostramos el tablero de compradores con facturas de ejemplo.</li>
              <li>Revisamos la documentación para firmar la alianza.</li>
              <li>Acordamos qué proveedores invitar primero.</li>
            </ul>
            <p className="site-note">
              ¿Prefieres escribirnos? Visita la página de <a href="/contacto/">contacto</a>.
            </p>
          </Static>
        </div>
      </Section>

      <FaqAccordion id="alianzas-preguntas" title="Preguntas sobre las alianzas" items={FAQ} />
    </div>
  );
}
