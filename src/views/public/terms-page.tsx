import { CONTACT_EMAIL, LEGAL_CITY, LEGAL_ENTITY, mailtoLink } from '../common/site-config';
import { LegalDocument, type LegalSection } from './legal-document';

const SECTIONS: readonly LegalSection[] = [
  {
    id: 'aceptacion',
    title: 'Aceptación',
    content: (
      <>
        <p>
          Estos Términos y Condiciones regulan el uso del sitio y de la plataforma Flujo (la «Plataforma»),
          operados por {LEGAL_ENTITY} («Flujo», «nosotros»). Al crear una cuenta, al marcar la casilla de
          aceptación o al usar la Plataforma, la persona que la usa y la empresa a la que representa (el
          «Usuario») aceptan estos términos. Si no estás de acuerdo con ellos, no uses la Plataforma.
        </p>
        <p>
          Quien acepta en nombre de una empresa declara tener facultades suficientes para obligarla. Las
          personas que usan la Plataforma en nombre de una misma empresa actúan por cuenta de esta.
        </p>
      </>
    ),
  },
  {
    id: 'definiciones',
    title: 'Definiciones',
    content: (
      <ul>
        <li>
          <strong>Proveedor:</strong> empresa o persona con actividad empresarial que emite facturas a un
          Comprador y usa la Plataforma para cobrarlas por anticipado.
        </li>
        <li>
          <strong>Comprador o Corporativo:</strong> empresa que recibe las facturas de sus Proveedores y tiene
          una Alianza con Flujo.
        </li>
        <li>
          <strong>Alianza:</strong> convenio entre Flujo y un Comprador por el que sus Proveedores pueden
          adelantar las facturas que el Comprador autoriza. Para el Comprador, la Alianza no tiene costo.
        </li>
        <li>
          <strong>Factura:</strong> comprobante fiscal digital por Internet (CFDI) versión 4.0 de tipo
          ingreso, timbrado y vigente ante el Servicio de Administración Tributaria (SAT).
        </li>
        <li>
          <strong>Pronto pago:</strong> operación por la que el Proveedor recibe hoy el importe de una
          Factura, menos su costo, y el Comprador la paga en su fecha de pago.
        </li>
        <li>
          <strong>Factoraje:</strong> línea revolvente por la que el Proveedor recibe el importe de sus
          Facturas, menos la comisión por asesoría, y lo paga en una a cuatro mensualidades.
        </li>
        <li>
          <strong>Cotización:</strong> propuesta de condiciones para el pago anticipado de una o varias
          Facturas, en la que se indica quién absorbe el costo financiero.
        </li>
      </ul>
    ),
  },
  {
    id: 'servicio',
    title: 'Qué hace Flujo',
    content: (
      <>
        <p>
          Flujo ofrece una plataforma tecnológica para que los Proveedores adelanten el cobro de sus Facturas
          y para que los Compradores las preautoricen, revisen solicitudes, obtengan cotizaciones y consulten
          su estado de cuenta. Las operaciones de pronto pago y de factoraje implican la transmisión de los
          derechos de cobro de las Facturas, conforme a la legislación mercantil aplicable y a los documentos
          que el Usuario firme para cada producto.
        </p>
        <p>
          Antes de confirmar cada operación, la Plataforma muestra el monto de la Factura, la tasa anual, el
          costo financiero, la comisión por asesoría y el importe que se recibirá. Esas condiciones, aceptadas
          por el Usuario, forman parte del contrato de la operación. La información de las páginas públicas,
          incluida la calculadora, es ilustrativa y no constituye una oferta.
        </p>
      </>
    ),
  },
  {
    id: 'cuenta',
    title: 'Registro y cuenta',
    content: (
      <ul>
        <li>El Usuario proporciona información veraz, completa y actualizada, y la corrige cuando cambie.</li>
        <li>
          El nombre de usuario y la contraseña son personales. El Usuario cuida su confidencialidad y nos
          avisa de inmediato a <a href={mailtoLink('Uso no autorizado de mi cuenta')}>{CONTACT_EMAIL}</a> si
          sospecha de un uso no autorizado.
        </li>
        <li>
          Podemos pedir documentación para verificar la identidad del Usuario y de su empresa, y no abrir o
          suspender una cuenta cuando la información no pueda verificarse.
        </li>
        <li>
          Las acciones realizadas con las credenciales del Usuario se consideran hechas por él, salvo que haya
          reportado antes su uso no autorizado.
        </li>
      </ul>
    ),
  },
  {
    id: 'sat',
    title: 'Vinculación con el SAT',
    content: (
      <>
        <p>
          Para mostrar y adelantar Facturas, el Usuario puede vincular el RFC de su empresa con su Contraseña
          del SAT (CIEC). Al hacerlo nos autoriza a consultar en el portal del SAT los comprobantes emitidos y
          recibidos por su empresa con el único fin de prestar el servicio: identificar las Facturas
          elegibles, verificar que sigan vigentes y mantener actualizado su estatus.
        </p>
        <p>
          Guardamos la CIEC cifrada y nunca la usamos para presentar declaraciones, emitir o cancelar
          comprobantes, ni para ningún otro trámite. El Usuario puede revocar esta autorización en cualquier
          momento cambiando su CIEC ante el SAT y avisándonos; sin vinculación, algunas funciones dejan de
          estar disponibles.
        </p>
      </>
    ),
  },
  {
    id: 'operaciones',
    title: 'Operaciones de pronto pago y factoraje',
    content: (
      <>
        <h3>Proveedores</h3>
        <ul>
          <li>
            Solo pueden adelantarse Facturas emitidas a un Comprador con Alianza, vigentes, pendientes de pago
            y no transmitidas antes a un tercero.
          </li>
          <li>
            Si la Factura no fue preautorizada, el Comprador recibe la solicitud y la autoriza o la rechaza.
            Le informamos al Proveedor el resultado.
          </li>
          <li>
            Una vez depositado el importe, la operación no puede revertirse. El Proveedor se obliga a no
            cancelar, sustituir ni cobrar directamente una Factura adelantada, y a informarnos de cualquier
            nota de crédito, devolución o disputa relacionada con ella.
          </li>
          <li>
            En el factoraje, el Proveedor paga cada mensualidad en su fecha. El importe de las mensualidades y
            sus fechas se muestran antes de confirmar la operación.
          </li>
        </ul>
        <h3>Compradores</h3>
        <ul>
          <li>
            Al preautorizar o autorizar una Factura, el Comprador confirma que la recibió, que es exigible y
            que la pagará íntegra en la fecha de pago indicada, a la cuenta que Flujo le señale.
          </li>
          <li>
            El Comprador puede rechazar solicitudes. Una Factura autorizada no puede desautorizarse después de
            que el Proveedor reciba el pago.
          </li>
          <li>
            En una Cotización, el Comprador decide si el costo financiero lo absorbe el Proveedor o su
            empresa; si elige absorberlo, lo paga en los términos que la Cotización muestre.
          </li>
        </ul>
      </>
    ),
  },
  {
    id: 'costos',
    title: 'Costos',
    content: (
      <>
        <p>
          El Proveedor paga, por cada operación: (a) un costo financiero igual al importe de la Factura por la
          tasa anual y por los días que faltan para la fecha de pago, divididos entre 360; y (b) una comisión
          por asesoría del 1 % del importe de la Factura más el Impuesto al Valor Agregado. La tasa anual se
          muestra como «tasa + IVA». Ambos importes se descuentan del monto que se deposita.
        </p>
        <p>
          Para el Comprador la Alianza no tiene costo. Flujo no cobra por el registro ni por el uso de la
          Plataforma fuera de los conceptos anteriores.
        </p>
      </>
    ),
  },
  {
    id: 'obligaciones',
    title: 'Uso aceptable',
    content: (
      <>
        <p>El Usuario se obliga a no:</p>
        <ul>
          <li>
            presentar Facturas simuladas, duplicadas, ya cobradas o que amparen operaciones inexistentes;
          </li>
          <li>usar la Plataforma para operaciones con recursos de procedencia ilícita;</li>
          <li>
            intentar acceder a cuentas, datos o sistemas que no le correspondan, o vulnerar su seguridad;
          </li>
          <li>usar programas automatizados para extraer información de la Plataforma;</li>
          <li>copiar, modificar o distribuir la Plataforma o sus contenidos sin autorización.</li>
        </ul>
        <p>
          Si detectamos un uso contrario a estos términos o a la ley, podemos suspender la cuenta, rechazar
          operaciones pendientes y dar aviso a las autoridades competentes.
        </p>
      </>
    ),
  },
  {
    id: 'propiedad',
    title: 'Propiedad intelectual',
    content: (
      <p>
        La Plataforma, su código, diseño, marcas y contenidos pertenecen a Flujo o a sus licenciantes.
        Otorgamos al Usuario una licencia personal, revocable, no exclusiva e intransferible para usarla
        conforme a estos términos. La información y los documentos que el Usuario carga siguen siendo suyos.
      </p>
    ),
  },
  {
    id: 'disponibilidad',
    title: 'Disponibilidad y responsabilidad',
    content: (
      <>
        <p>
          Procuramos que la Plataforma esté disponible de forma continua, pero puede interrumpirse por
          mantenimiento, fallas de terceros (como el portal del SAT o los sistemas de pagos) o causas fuera de
          nuestro control. Cuando sea posible, avisaremos con anticipación las interrupciones programadas.
        </p>
        <p>
          Flujo responde de los daños directos que cause por dolo o negligencia. No responde de daños
          derivados de información falsa proporcionada por el Usuario, del uso no autorizado de sus
          credenciales que no haya reportado, ni de interrupciones causadas por terceros.
        </p>
      </>
    ),
  },
  {
    id: 'datos',
    title: 'Datos personales y comunicaciones',
    content: (
      <p>
        Tratamos los datos personales conforme a nuestro{' '}
        <a href="/politicas-de-privacidad/">aviso de privacidad</a> y a nuestra{' '}
        <a href="/politica-de-proteccion-de-datos/">política de protección de datos</a>. El Usuario acepta
        recibir por correo electrónico y dentro de la Plataforma los avisos relacionados con su cuenta y sus
        operaciones; los mensajes promocionales son opcionales y puede darse de baja en cualquier momento.
      </p>
    ),
  },
  {
    id: 'terminacion',
    title: 'Suspensión y terminación',
    content: (
      <p>
        El Usuario puede cancelar su cuenta escribiendo a{' '}
        <a href={mailtoLink('Cancelar mi cuenta')}>{CONTACT_EMAIL}</a>. La cancelación no afecta las
        operaciones en curso, que se liquidan en sus términos. Flujo puede terminar el acceso con aviso previo
        de quince días, o de inmediato en caso de incumplimiento grave de estos términos.
      </p>
    ),
  },
  {
    id: 'cambios',
    title: 'Cambios a estos términos',
    content: (
      <p>
        Podemos actualizar estos términos. Publicaremos la nueva versión en esta página con su fecha y, si los
        cambios son relevantes, avisaremos por correo electrónico con al menos quince días de anticipación.
        Las operaciones ya confirmadas se rigen por los términos vigentes al confirmarlas.
      </p>
    ),
  },
  {
    id: 'ley',
    title: 'Ley aplicable y jurisdicción',
    content: (
      <p>
        Estos términos se rigen por las leyes federales de los Estados Unidos Mexicanos. Para su
        interpretación y cumplimiento, las partes se someten a los tribunales competentes de la {LEGAL_CITY},
        y renuncian a cualquier otro fuero que pudiera corresponderles por su domicilio presente o futuro.
      </p>
    ),
  },
  {
    id: 'contacto',
    title: 'Contacto',
    content: (
      <p>
        Para cualquier duda sobre estos términos escríbenos a{' '}
        <a href={mailtoLink('Términos y Condiciones')}>{CONTACT_EMAIL}</a>.
      </p>
    ),
  },
];

export function TermsPage() {
  return (
    <LegalDocument
      id="terminos-titulo"
      title="Términos y Condiciones"
      intro={
        <p>
          Te pedimos leer con atención estos términos: explican qué hace Flujo, qué te pedimos como Usuario y
          qué puedes esperar de nosotros.
        </p>
      }
      sections={SECTIONS}
    />
  );
}
