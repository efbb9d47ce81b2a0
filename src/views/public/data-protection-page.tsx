import { CONTACT_EMAIL, mailtoLink } from '../common/site-config';
import { LegalDocument, type LegalSection } from './legal-document';

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'alcance',
    title: 'Alcance',
    content: (
      <p>
        Esta política describe cómo protege Flujo la información que le confían proveedores y compradores:
        datos personales, credenciales del SAT, comprobantes fiscales y datos de sus operaciones. Complementa
        el <a href="/politicas-de-privacidad/">aviso de privacidad</a>, que explica para qué tratamos los
        datos y cómo ejercer tus derechos, y aplica a todas las personas de Flujo y a quienes tratan datos por
        nuestra cuenta.
      </p>
    ),
  },
  {
    id: 'principios',
    title: 'Principios',
    content: (
      <>
        <p>
          Tratamos los datos conforme a los principios de licitud, consentimiento, información, calidad,
          finalidad, lealtad, proporcionalidad y responsabilidad que establece la Ley Federal de Protección de
          Datos Personales en Posesión de los Particulares. En la práctica, eso significa que:
        </p>
        <ul>
          <li>pedimos solo los datos que necesitamos para cada función;</li>
          <li>cada persona de Flujo accede solo a la información que su trabajo requiere;</li>
          <li>no usamos los datos para fines distintos de los informados;</li>
          <li>conservamos los datos el tiempo necesario y después los suprimimos.</li>
        </ul>
      </>
    ),
  },
  {
    id: 'tecnicas',
    title: 'Medidas técnicas',
    content: (
      <ul>
        <li>
          <strong>Contraseñas:</strong> nunca las guardamos; guardamos una huella calculada con argon2id, un
          algoritmo diseñado para resistir ataques de fuerza bruta. Exigimos al menos 8 caracteres y
          rechazamos contraseñas comunes o solo numéricas.
        </li>
        <li>
          <strong>Sesiones:</strong> el acceso usa tokens de corta duración que se renuevan con un token de un
          solo uso; al cerrar sesión se borran del navegador. El inicio de sesión y el registro tienen límites
          de intentos y una verificación contra robots.
        </li>
        <li>
          <strong>Credenciales del SAT:</strong> la CIEC se guarda cifrada y solo la usa el proceso que
          consulta los comprobantes de tu empresa.
        </li>
        <li>
          <strong>Separación de la información:</strong> el servidor verifica en cada consulta el rol, la
          empresa y el estatus de vinculación de quien la hace. Un proveedor solo ve las facturas que emitió y
          un comprador solo las que recibió.
        </li>
        <li>
          <strong>Trazabilidad:</strong> cada cambio de estatus de una factura queda registrado con quién lo
          hizo, cuándo y por qué, y las operaciones que mueven dinero no pueden ejecutarse dos veces.
        </li>
        <li>
          <strong>Archivos:</strong> los XML y ZIP que se cargan tienen límites de tamaño y se analizan sin
          ejecutar contenido externo.
        </li>
        <li>
          <strong>Transmisión y navegador:</strong> la información viaja cifrada; las páginas envían
          encabezados de seguridad y no cargan código ni contenido de terceros.
        </li>
      </ul>
    ),
  },
  {
    id: 'administrativas',
    title: 'Medidas administrativas',
    content: (
      <ul>
        <li>
          Las personas de Flujo con acceso a datos firman compromisos de confidencialidad y reciben
          capacitación.
        </li>
        <li>
          Los accesos se otorgan por función, se revisan periódicamente y se retiran al cambiar de puesto.
        </li>
        <li>
          Los proveedores de servicios que tratan datos por nuestra cuenta se obligan por contrato a tratarlos
          solo según nuestras instrucciones y con medidas de seguridad equivalentes a las nuestras.
        </li>
        <li>Revisamos estas medidas al menos una vez al año y cuando cambian nuestros sistemas.</li>
      </ul>
    ),
  },
  {
    id: 'conservacion',
    title: 'Conservación y supresión',
    content: (
      <p>
        Conservamos los datos de tu cuenta mientras esté activa. La documentación de las operaciones y los
        comprobantes fiscales se conservan durante el plazo que exigen las leyes fiscales y mercantiles (en
        general, cinco años conforme al Código Fiscal de la Federación). Al vencer, bloqueamos los datos y
        después los suprimimos de forma segura. Los datos de quienes solo solicitaron una demostración o se
        suscribieron al boletín se eliminan cuando lo piden o cuando dejan de ser necesarios.
      </p>
    ),
  },
  {
    id: 'incidentes',
    title: 'Incidentes de seguridad',
    content: (
      <p>
        Si ocurre una vulneración de seguridad que afecte de forma significativa tus derechos, te informaremos
        sin demora de lo ocurrido, de los datos comprometidos, de las medidas que tomamos y de lo que puedes
        hacer para protegerte. Documentamos cada incidente y sus causas para evitar que se repita.
      </p>
    ),
  },
  {
    id: 'tus-medidas',
    title: 'Lo que puedes hacer tú',
    content: (
      <ul>
        <li>Usa una contraseña única para Flujo y no la compartas.</li>
        <li>Cierra sesión en equipos compartidos.</li>
        <li>
          Flujo nunca te pedirá tu contraseña ni tu CIEC por correo, teléfono o WhatsApp. Si recibes una
          solicitud así, repórtala.
        </li>
      </ul>
    ),
  },
  {
    id: 'contacto',
    title: 'Contacto',
    content: (
      <p>
        Para reportar un incidente o hacer preguntas sobre esta política escribe a{' '}
        <a href={mailtoLink('Protección de datos')}>{CONTACT_EMAIL}</a>.
      </p>
    ),
  },
];

export function DataProtectionPage() {
  return (
    <LegalDocument
      id="proteccion-titulo"
      title="Política de protección de datos"
      intro={
        <p>
          Proveedores y compradores nos confían información fiscal y financiera de sus empresas. Esta política
          explica las medidas con las que la protegemos.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
