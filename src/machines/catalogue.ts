import type { AnyStateMachine } from 'xstate';
import { authorizationRequestMachine } from './authorization-request.machine';
import { demoRequestMachine } from './demo-request.machine';
import { forwardPaymentMachine } from './forward-payment.machine';
import { invoiceDownloadMachine } from './invoice-download.machine';
import { invoiceLifecycleMachine } from './invoice-lifecycle.machine';
import { passwordChangeMachine } from './password-change.machine';
import { passwordResetMachine } from './password-reset.machine';
import { passwordResetRequestMachine } from './password-reset-request.machine';
import { profileMachine } from './profile.machine';
import { satLinkMachine } from './sat-link.machine';
import { sessionMachine } from './session.machine';
import { signUpMachine } from './sign-up.machine';

export interface MachineEntry {
  id: string;
  /** Spanish title shown to auditors on /diagramas/. */
  title: string;
  /** One Spanish paragraph: what the workflow decides and who triggers it. */
  description: string;
  machine: AnyStateMachine;
}

/** Every workflow machine of Flujo; diagrams, the /diagramas/ page and the model tests read this list. */
export const machineCatalogue: readonly MachineEntry[] = [
  {
    id: 'invoice-lifecycle',
    title: 'Ciclo de vida de la factura',
    description:
      'Estados de una factura importada desde su CFDI: Por Autorizar, Solicitado, Autorizada, En trámite, Pagada, ' +
      'Factoraje, Cancelada y Rechazada. El servidor evalúa esta misma máquina en cada cambio de estado, dentro de ' +
      'una transacción que bloquea la factura y registra quién hizo el cambio; un evento no permitido se rechaza ' +
      'sin escribir nada. Las condiciones verifican que quien actúa sea el emisor o el receptor con su vinculación ' +
      'SAT autorizada y que la fecha de pago no exceda 150 días desde la emisión.',
    machine: invoiceLifecycleMachine,
  },
  {
    id: 'invoice-download',
    title: 'Descarga de facturas adelantadas',
    description:
      'En «Resumen de tus Facturas Adelantadas» el proveedor selecciona facturas (o «Seleccionar todos») y con ' +
      '«Descargar seleccionados» obtiene un ZIP con el XML del CFDI, tal como se importó, y un PDF de cada una. El ' +
      'botón está deshabilitado sin selección, con más de 100 facturas y mientras hay una descarga en curso, que ' +
      'muestra su avance. El servidor entrega solo facturas adelantadas (En trámite o Pagada) de la propia empresa; ' +
      'si falla o no responde se muestra el motivo y la selección se conserva.',
    machine: invoiceDownloadMachine,
  },
  {
    id: 'authorization-request',
    title: 'Solicitud de autorización (Solicitar adelanto)',
    description:
      'En Pronto Pago, el proveedor pulsa «Solicitar adelanto» en una factura Por Autorizar para pedir a su cliente ' +
      'que la autorice. La solicitud lleva una clave de idempotencia, así que no puede enviarse dos veces; mientras ' +
      'se envía, el aviso muestra «Cargando...». Después se muestra el mensaje del servidor con su tipo (éxito, ' +
      'error, información o advertencia): el cliente fue notificado y responde en un plazo máximo de 24 horas, y la ' +
      'factura pasa a Solicitado. Si el servidor la rechaza, por ejemplo porque alguien ya la solicitó, se muestra ' +
      'su mensaje y la lista se vuelve a leer.',
    machine: authorizationRequestMachine,
  },
  {
    id: 'forward-payment',
    title: 'Adelanto de pago (Adelantar pago)',
    description:
      'En una factura Autorizada, «Adelantar pago» abre un panel lateral con la cotización: tasa anual (tasa + IVA), ' +
      'días, costo financiero, costo de asesoría y total a recibir; si la cotización falla se ofrece «Reintentar». ' +
      'Al confirmar, el adelanto se envía con una clave de idempotencia creada para esa confirmación: si se pierde ' +
      'la respuesta, el reintento usa la misma clave y el servidor no puede adelantar dos veces. Al aceptarse se ' +
      'muestra el aviso de éxito y la factura pasa a En trámite; un rechazo del servidor (por ejemplo, un cambio ' +
      'simultáneo) se muestra con su mensaje y la lista se vuelve a leer.',
    machine: forwardPaymentMachine,
  },
  {
    id: 'session',
    title: 'Sesión',
    description:
      'Al cargar la aplicación se lee el token guardado: si no existe, ya venció o no se puede leer, se borran los ' +
      'datos locales y el usuario queda sin sesión. Al ingresar se guardan los tokens y los permisos y se va a ' +
      'Pronto Pago; un error muestra el mensaje del servidor. Antes de que venza el token de acceso se renueva con ' +
      'el token de renovación; si la renovación falla, o al cerrar sesión, se borra todo y se vuelve al inicio.',
    machine: sessionMachine,
  },
  {
    id: 'sat-link',
    title: 'Vinculación SAT',
    description:
      'El proveedor vincula su cuenta del SAT con su RFC y su contraseña CIEC; mientras la vinculación no esté ' +
      'autorizada, todas las pantallas del dashboard lo traen aquí. Al abrir la pantalla se consulta el estado en el ' +
      'servidor: sin vincular o rechazada muestra el formulario (con el aviso «La última solicitud de vinculación fue ' +
      'rechazada» si fue rechazada); enviada oculta el formulario y pide esperar la aprobación, consultando el estado ' +
      'cada 15 segundos; autorizada lleva a Pronto Pago. Un error al enviar muestra un aviso y conserva los datos.',
    machine: satLinkMachine,
  },
  {
    id: 'sign-up',
    title: 'Registro',
    description:
      'Crear una cuenta: primero se resuelve el CAPTCHA de la acción «register» y sin él no se envía nada; luego el ' +
      'servidor vuelve a validar cada campo y las contraseñas. Los errores del servidor se muestran en cada campo; ' +
      'al crearse la cuenta se va a la pantalla de ingreso.',
    machine: signUpMachine,
  },
  {
    id: 'demo-request',
    title: 'Solicitud de demo',
    description:
      'Formulario público para pedir una demostración. Los campos se validan con las mismas reglas en el navegador ' +
      'y en el servidor; al enviarse se muestra «Solicitud enviada con éxito» durante 3 segundos y el formulario se ' +
      'limpia. Si el servidor rechaza algún campo, falla o no responde, se muestran los mensajes de error y los ' +
      'datos capturados se conservan.',
    machine: demoRequestMachine,
  },
  {
    id: 'password-reset-request',
    title: 'Solicitud de restablecimiento de contraseña',
    description:
      'En «Restablecer contraseña» el usuario escribe su correo y se le envía un enlace de un solo uso para crear ' +
      'una nueva contraseña. Al enviarse se muestra el mensaje del servidor y el formulario se limpia. Si el correo ' +
      'no está registrado se muestra «El correo electrónico no está registrado»; cualquier otra falla, incluso sin ' +
      'respuesta del servidor, muestra «Error al enviar el correo de restablecimiento. Por favor, intenta de nuevo» ' +
      'y conserva el correo capturado.',
    machine: passwordResetRequestMachine,
  },
  {
    id: 'password-reset',
    title: 'Nueva contraseña desde el correo',
    description:
      'El enlace del correo abre «Cambiar clave» con su token. Mientras el usuario escribe, las reglas de al menos ' +
      '8 caracteres y no completamente numérica se marcan en rojo si no se cumplen; las de no parecerse a sus datos ' +
      'y no ser de uso común las revisa el servidor. Al aceptarse se muestra el mensaje del servidor y a los 4 ' +
      'segundos se va a la pantalla de ingreso; si se rechaza se muestra el primer error de la contraseña. Un enlace ' +
      'sin token no llega a esta máquina: la pantalla explica el problema y ofrece pedir un nuevo correo.',
    machine: passwordResetMachine,
  },
  {
    id: 'password-change',
    title: 'Cambio de contraseña',
    description:
      'Un usuario con sesión cambia su contraseña escribiendo la actual, la nueva y su confirmación, con las mismas ' +
      'reglas en el navegador y en el servidor. Al aceptarse se muestra durante 2 segundos el mensaje del servidor ' +
      'y el formulario se limpia; si la contraseña actual no es correcta se muestra el primer error que devuelve el ' +
      'servidor. Si la sesión ya no es válida se borran los datos locales y se vuelve al inicio.',
    machine: passwordChangeMachine,
  },
  {
    id: 'profile',
    title: 'Perfil',
    description:
      'Carga los datos del usuario (nombre, apellido, teléfono, empresa y si desea recibir notificaciones) y las ' +
      'cuentas CLABE de solo lectura que tenga asignadas. Si la carga falla se ofrece «Reintentar». Al guardar se ' +
      'valida cada campo obligatorio y se muestra «Tu perfil se actualizó correctamente» durante 2 segundos; un ' +
      'error del servidor se muestra sin perder lo capturado.',
    machine: profileMachine,
  },
];
