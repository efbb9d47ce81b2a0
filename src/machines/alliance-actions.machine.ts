import { createBackOfficeActionMachine } from './back-office-action';

/** The intents of /operacion/alianzas/: a new alliance, or a new price for a listed one (`intent.id`). */
export const ALLIANCE_ACTIONS = { create: 'create', reprice: 'reprice' } as const;

/**
 * /operacion/alianzas/: the analyst's form that creates an alliance or changes its price. The route provides
 * the call (`act`, POST operator/alliances/) and what a save refreshes (the alliances and their histories).
 */
export const allianceActionsMachine = createBackOfficeActionMachine({
  id: 'alliance-actions',
  title: 'Alianzas: nueva alianza y cambio de precio',
  description:
    'En /operacion/alianzas/ un analista abre «Nueva alianza» o «Cambiar precio» de una alianza de la lista, ' +
    'escribe la tasa anual antes de IVA, los días máximos y el monto máximo por factura y la guarda; el ' +
    'historial conserva cada precio.',
  gestures: '«Nueva alianza», «Cambiar precio»',
});
