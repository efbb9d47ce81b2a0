import { createBackOfficeActionMachine } from './back-office-action';

/**
 * /operacion/dispersiones/ (decision 0054): tesorería's gestures on the SPEI batches. «Crear lote» (one click, the
 * selected approved advances) and «Descargar layout» are one click; «Cargar resultado del banco» is the file
 * chooser (the `editing` state, left by choosing a file or closing the chooser). Money calls carry the intent's
 * Idempotency-Key.
 */
export const disbursementActionsMachine = createBackOfficeActionMachine({
  id: 'disbursement-actions',
  title: 'Dispersiones: lotes SPEI y resultado del banco',
  description:
    'Tesorería crea un lote SPEI con los adelantos aprobados que selecciona, descarga su layout para el portal ' +
    'del banco y carga el archivo de resultado del banco (otra persona, no quien creó el lote).',
  gestures: '«Crear lote», «Descargar layout», «Cargar resultado del banco»',
});
