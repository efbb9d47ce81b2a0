/** Spec §2: the tabs of /dashboard/conoce-tu-empresa/, in order (their URL names). */
export const KNOW_YOUR_BUSINESS_TABS = ['cuentas-por-cobrar', 'cuentas-por-pagar', 'indicadores'] as const;
export type KnowYourBusinessTab = (typeof KNOW_YOUR_BUSINESS_TABS)[number];

export const TAB_LABELS: Record<KnowYourBusinessTab, string> = {
  'cuentas-por-cobrar': 'Cuentas por cobrar',
  'cuentas-por-pagar': 'Cuentas por pagar',
  indicadores: 'Indicadores',
};
