import { CONTACT_EMAIL, LEGAL_CITY, LEGAL_ENTITY, mailtoLink } from '../common/site-config';
import { LegalDocument, type LegalSection } from './legal-document';

function ArcoMail({ subject }: { subject: string }) {
  return <a href={mailtoLink(subject)}>{CONTACT_EMAIL}</a>;
}

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'responsable',
    title: 'Responsable',
    content: (
      <p>
        {LEGAL_ENTITY} («Flujo»), con domicilio en la {LEGAL_CITY}, es responsable del tratamiento de tus
        datos personales en términos de la Ley Federal de Protección de Datos Personales en Posesión de los
        Particulares (LFPDPPP), publicada en el Diario Oficial de la Federación el 20 de marzo de 2025. Para
        todo lo relacionado con este aviso puedes escribirnos a <ArcoMail subject="Aviso de privacidad" />.
      </p>
    ),
  },
  {
    id: 'datos',
    title: 'Datos personales que tratamos',
    content: (
      <>
        <p>Según cómo uses Flujo, tratamos estas categorías de datos:</p>
        <ul>
          <li>
            <strong>Identificación y contacto:</strong> nombre, apellidos, nombre de usuario, correo
            electrónico, teléfono, empresa y puesto.
          </li>
          <li>
            <strong>Fiscales:</strong> RFC, régimen fiscal, Contraseña del SAT (CIEC) que nos confías para la
            vinculación, y los comprobantes fiscales (CFDI) emitidos o recibidos por tu empresa con la
            información de las personas que aparecen en ellos.
          </li>
          <li>
            <strong>Patrimoniales y financieros:</strong> cuenta CLABE, importes, fechas de pago y estatus de
            las facturas, y el historial de las operaciones que realizas en Flujo.
          </li>
          <li>
            <strong>Técnicos:</strong> dirección IP, navegador, fechas y horas de acceso, y registros de
            seguridad de tu cuenta.
          </li>
        </ul>
        <p>
          No solicitamos datos personales sensibles. Si al cargar documentos nos compartes datos de terceros
          (por ejemplo, de contactos de tus clientes), declaras contar con su consentimiento o con otra base
          legal para hacerlo.
        </p>
      </>
    ),
  },
  {
    id: 'finalidades',
    title: 'Para qué usamos tus datos',
    content: (
      <>
        <h3>Finalidades necesarias</h3>
        <p>Sin ellas no podemos prestarte el servicio:</p>
        <ul>
          <li>crear y administrar tu cuenta, y verificar tu identidad y la de tu empresa;</li>
          <li>vincular tu RFC con el SAT, importar tus CFDI y verificar que sigan vigentes;</li>
          <li>cotizar, autorizar, operar, depositar y dar seguimiento a los adelantos y al factoraje;</li>
          <li>enviarte avisos sobre tu cuenta y tus operaciones, y atender tus solicitudes;</li>
          <li>proteger la Plataforma y a sus usuarios, prevenir fraudes y llevar registros de seguridad;</li>
          <li>
            cumplir obligaciones legales, incluidas las fiscales y, cuando resulten aplicables, las de
            prevención de operaciones con recursos de procedencia ilícita.
          </li>
        </ul>
        <h3>Finalidades voluntarias</h3>
        <p>Solo con tu consentimiento, y puedes negarte sin que afecte el servicio:</p>
        <ul>
          <li>enviarte el boletín, novedades de la Plataforma e invitaciones a eventos;</li>
          <li>contactarte para una demostración que no solicitaste;</li>
          <li>pedirte tu opinión en encuestas de satisfacción.</li>
        </ul>
        <p>
          Para negarte a las finalidades voluntarias escribe a{' '}
          <ArcoMail subject="No deseo finalidades voluntarias" /> o usa el enlace para darte de baja que
          incluye cada boletín.
        </p>
      </>
    ),
  },
  {
    id: 'transferencias',
    title: 'Con quién compartimos tus datos',
    content: (
      <>
        <p>Compartimos datos personales solo en estos casos:</p>
        <ul>
          <li>
            con la empresa compradora o proveedora con la que realizas una operación, en la medida necesaria
            para que pueda autorizarla, pagarla o darle seguimiento;
          </li>
          <li>con las instituciones financieras que fondean o liquidan las operaciones, para ejecutarlas;</li>
          <li>
            con autoridades competentes, cuando una ley o una orden fundada y motivada lo requiera, o para el
            reconocimiento, ejercicio o defensa de un derecho en un proceso.
          </li>
        </ul>
        <p>
          Estas transferencias son necesarias para cumplir la relación que tienes con nosotros o están
          previstas por la ley, por lo que no requieren tu consentimiento. También trabajan con nosotros
          proveedores de servicios de infraestructura, correo y soporte que tratan datos por nuestra cuenta,
          bajo contrato y con obligaciones de confidencialidad y seguridad. No vendemos tus datos personales.
        </p>
      </>
    ),
  },
  {
    id: 'arco',
    title: 'Tus derechos ARCO',
    content: (
      <>
        <p>Tienes derecho a:</p>
        <ul>
          <li>
            <strong>Acceso:</strong> saber qué datos tuyos tenemos y cómo los usamos;
          </li>
          <li>
            <strong>Rectificación:</strong> corregirlos si están desactualizados, son inexactos o incompletos;
          </li>
          <li>
            <strong>Cancelación:</strong> pedir que los eliminemos cuando ya no sean necesarios para las
            finalidades de este aviso;
          </li>
          <li>
            <strong>Oposición:</strong> oponerte a su uso para fines específicos.
          </li>
        </ul>
        <h3>Cómo ejercerlos</h3>
        <p>
          Envía tu solicitud a <ArcoMail subject="Solicitud de derechos ARCO" /> con:
        </p>
        <ol>
          <li>tu nombre y un medio para comunicarte la respuesta;</li>
          <li>
            una copia de tu identificación oficial o, si actúa un representante, la de este y el documento que
            acredite su representación;
          </li>
          <li>la descripción clara de los datos y del derecho que quieres ejercer;</li>
          <li>
            cualquier dato que nos ayude a localizarlos y, si pides una rectificación, el documento que
            respalde el cambio.
          </li>
        </ol>
        <p>
          Te responderemos en un plazo máximo de 20 días contados desde que recibamos tu solicitud completa y,
          si resulta procedente, la haremos efectiva dentro de los 15 días siguientes a nuestra respuesta. Si
          necesitamos más información te la pediremos dentro de los primeros 5 días. Ejercer tus derechos es
          gratuito; solo podrían cobrarse los gastos de envío o de reproducción en copias.
        </p>
        <p>
          La cancelación no procede respecto de datos que debamos conservar por una obligación legal (por
          ejemplo, la documentación fiscal de operaciones realizadas) o que sean necesarios para cumplir una
          operación vigente; en ese caso los bloquearemos y los suprimiremos al terminar el plazo de
          conservación.
        </p>
      </>
    ),
  },
  {
    id: 'revocacion',
    title: 'Revocar tu consentimiento y limitar el uso de tus datos',
    content: (
      <p>
        Puedes revocar el consentimiento que nos diste o pedirnos limitar el uso o la divulgación de tus datos
        con una solicitud al mismo correo y con los mismos requisitos que los derechos ARCO. Ten en cuenta
        que, si revocas el consentimiento para una finalidad necesaria, no podremos seguir prestándote el
        servicio. Para dejar de recibir el boletín basta con el enlace de baja de cada envío.
      </p>
    ),
  },
  {
    id: 'tecnologias',
    title: 'Cookies y almacenamiento en tu navegador',
    content: (
      <p>
        Flujo no usa cookies de publicidad ni herramientas de rastreo de terceros, y sus páginas no cargan
        contenido de otros sitios. La Plataforma guarda en el almacenamiento local de tu navegador lo
        indispensable para funcionar: los tokens de tu sesión, tus permisos y tu preferencia de modo oscuro.
        Al cerrar sesión se borra todo lo que la Plataforma guardó.
      </p>
    ),
  },
  {
    id: 'autoridad',
    title: 'Autoridad',
    content: (
      <p>
        Si consideras que tu derecho a la protección de datos personales ha sido lesionado, puedes acudir ante
        la Secretaría Anticorrupción y Buen Gobierno, autoridad encargada de vigilar el cumplimiento de la
        LFPDPPP.
      </p>
    ),
  },
  {
    id: 'cambios',
    title: 'Cambios a este aviso',
    content: (
      <p>
        Cualquier cambio a este aviso se publicará en esta página con su fecha de actualización. Si el cambio
        implica nuevas finalidades que requieran tu consentimiento, te lo pediremos antes de tratar tus datos
        para ellas.
      </p>
    ),
  },
];

export function PrivacyPage() {
  return (
    <LegalDocument
      id="privacidad-titulo"
      title="Aviso de privacidad"
      intro={
        <p>
          Este aviso de privacidad integral explica qué datos personales tratamos, para qué, con quién los
          compartimos y cómo puedes ejercer tus derechos. Aplica a quienes visitan el sitio, solicitan una
          demostración, se suscriben al boletín o usan la Plataforma como proveedores o compradores.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
