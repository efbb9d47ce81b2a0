import { createBackOfficeActionMachine } from './back-office-action';

/**
 * /operacion/mesa/ (decision 0054): the aprobador's gestures on one advance of the control desk. «Aprobar» opens
 * its confirmation (the `editing` state: the amount and the beneficiary the money goes to) and confirming sends
 * it, with one Idempotency-Key per intent; «Rechazar» opens the reason dialog. Either ends with the machine's
 * outcome notice (issue 33). Which gestures a row offers is the desk-item machine's answer (`deskTransition`), as
 * on the server.
 */
export const deskActionsMachine = createBackOfficeActionMachine({
  id: 'desk-actions',
  title: 'Mesa de control: aprobar o rechazar un adelanto',
  description:
    'El aprobador decide cada adelanto en trámite de la mesa de control: «Aprobar» (solo si pasan todas las ' +
    'verificaciones) pide confirmar el monto y el beneficiario antes de enviarse; «Rechazar» pide un motivo que ' +
    'el proveedor recibe por correo. Al terminar, un aviso dice qué pasó.',
  gestures: '«Aprobar», «Rechazar»',
});
