import { createBackOfficeActionMachine } from './back-office-action';

/**
 * /operacion/mesa/ (decision 0054): the aprobador's gestures on one advance of the control desk. «Aprobar» is one
 * click, sent with one Idempotency-Key per intent; «Rechazar» opens the reason dialog (the `editing` state). Which
 * gestures a row offers is the desk-item machine's answer (`deskTransition`), as on the server.
 */
export const deskActionsMachine = createBackOfficeActionMachine({
  id: 'desk-actions',
  title: 'Mesa de control: aprobar o rechazar un adelanto',
  description:
    'El aprobador decide cada adelanto en trámite de la mesa de control: «Aprobar» (un clic, solo si pasan todas ' +
    'las verificaciones) o «Rechazar» con un motivo que el proveedor recibe por correo.',
  gestures: '«Aprobar», «Rechazar»',
});
