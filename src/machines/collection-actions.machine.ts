import { createBackOfficeActionMachine } from './back-office-action';

/**
 * /operacion/cobranza/ (decision 0067): the operator's gestures on collections. «Cargar estado de cuenta» is the
 * file chooser; «Asignar», «Rechazar» and «Aplicar saldo a favor» are forms; «Aprobar» is one click. Which of them
 * a queued payment offers is the unidentified-payment machine's answer. Money calls carry the intent's key.
 */
export const collectionActionsMachine = createBackOfficeActionMachine({
  id: 'collection-actions',
  title: 'Cobranza: estado de cuenta del banco, pagos no identificados y saldos a favor',
  description:
    'Tesorería carga el estado de cuenta del banco; asigna los pagos no identificados a una factura (arriba del ' +
    'umbral otro aprobador aprueba o rechaza la propuesta) y aplica el saldo a favor de un corporativo a una de ' +
    'sus facturas.',
  gestures: '«Cargar estado de cuenta», «Asignar», «Aprobar», «Rechazar», «Aplicar saldo a favor»',
});
