import { createBackOfficeActionMachine } from './back-office-action';

/**
 * /operacion/programas/ (decision 0052): the operators' gestures on the corporates' credit programmes. Which of
 * them a programme offers to this operator stays the credit-programme machine's answer (`programmeAccepts`);
 * this machine holds the one gesture under way, its Idempotency-Key (approvals and collections move money) and
 * what came of it.
 */
export const programmeActionsMachine = createBackOfficeActionMachine({
  id: 'programme-actions',
  title: 'Programas de crédito: acciones del operador',
  description:
    'En Programas de crédito el Analista o el Aprobador propone un límite o un aumento (formulario), otro ' +
    'Aprobador lo aprueba con un clic, el Aprobador congela o descongela un programa con un motivo y Tesorería ' +
    'registra el pago del corporativo de una factura adelantada (formulario). Qué acciones ofrece cada programa ' +
    'lo decide la máquina del programa de crédito.',
  gestures: '«Proponer límite», «Aprobar», «Congelar», «Descongelar», «Registrar cobro»',
});
