import { createBackOfficeActionMachine } from './back-office-action';

/**
 * /operacion/cartera/ (decision 0068): the operator records an action of the buyer's collection (a call, an
 * e-mail, a promise of payment with its date). This machine holds the form's call, its refusal at the fields and
 * what came of it.
 */
export const portfolioActionsMachine = createBackOfficeActionMachine({
  id: 'portfolio-actions',
  title: 'Cartera: bitácora de cobranza',
  description:
    'En Cartera el operador Analista, Aprobador o Tesorería registra en la bitácora de cobranza del comprador ' +
    'una llamada, un correo o una promesa de pago con su fecha (formulario); la bitácora guarda quién y cuándo.',
  gestures: '«Registrar gestión»',
});
