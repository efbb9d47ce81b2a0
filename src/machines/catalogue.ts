import type { AnyStateMachine } from 'xstate';
import { demoRequestMachine } from './demo-request.machine';
import { invoiceLifecycleMachine } from './invoice-lifecycle.machine';

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
    id: 'demo-request',
    title: 'Solicitud de demo',
    description:
      'Formulario público para pedir una demostración. Los campos se validan con las mismas reglas en el navegador ' +
      'y en el servidor; al enviarse se muestra «Solicitud enviada con éxito» durante 3 segundos y el formulario se ' +
      'limpia. Si el servidor rechaza algún campo, falla o no responde, se muestran los mensajes de error y los ' +
      'datos capturados se conservan.',
    machine: demoRequestMachine,
  },
];
