import { createBackOfficeActionMachine } from './back-office-action';

/**
 * /operacion/exposicion/ (decision 0069): the operators' gestures on the concentration caps. Which of them a cap
 * offers to this operator stays the concentration-cap machine's answer (`capAccepts`); this machine holds the one
 * gesture under way, its Idempotency-Key (an approval puts a cap in force) and what came of it.
 */
export const exposureActionsMachine = createBackOfficeActionMachine({
  id: 'exposure-actions',
  title: 'Exposición: acciones sobre los topes de concentración',
  description:
    'En Exposición el Analista o el Aprobador propone un tope de concentración por comprador, grupo económico o ' +
    'proveedor (formulario); otro Aprobador lo aprueba con un clic o un Aprobador lo rechaza. Qué acciones ofrece ' +
    'cada tope lo decide la máquina del tope de concentración.',
  gestures: '«Proponer tope», «Aprobar», «Rechazar»',
});
