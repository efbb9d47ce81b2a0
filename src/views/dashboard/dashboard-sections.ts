import type { Role } from '../../stores/user.store';

export interface DashboardSection {
  path: string;
  label: string;
  /** Sidebar tooltip (spec §2 corporate tooltips). */
  tooltip?: string;
  /** Help card text per section (spec §2 "Help cards"). */
  help: string;
  /** Spec §2: the provider sidebar shows the account statement only for corporate accounts. */
  onlyForCorporateAccounts?: boolean;
  /** Reachable by URL but not listed in the sidebar. */
  hidden?: boolean;
}

export const PROVIDER_SECTIONS: readonly DashboardSection[] = [
  {
    path: '/dashboard/pronto-pago/',
    label: 'Pronto Pago',
    help: 'Visualiza tus cuentas por cobrar y adelanta su pago con una tasa preferencial.',
  },
  {
    path: '/dashboard/facturas-pronto-pago/',
    label: 'Facturas adelantadas',
    help: 'Consulta las facturas que ya adelantaste y descarga su XML o PDF.',
  },
  {
    path: '/dashboard/factoraje/',
    label: 'Factoraje',
    help: 'Cobra tus facturas hoy y elige el plazo en que pagas tu línea revolvente.',
  },
  {
    path: '/dashboard/estado-de-cuenta/',
    label: 'Estado de cuenta',
    help: 'Consulta tus saldos pendientes y las fechas de pago.',
    onlyForCorporateAccounts: true,
  },
  {
    path: '/dashboard/conoce-tu-empresa/',
    label: 'Conoce tu empresa',
    help: 'Revisa tus cuentas por cobrar, tus cuentas por pagar y los indicadores de tu empresa.',
  },
  {
    path: '/dashboard/cuentas-por-cobrar/',
    label: 'Cuentas por cobrar',
    help: 'Consulta tus facturas y su estatus; las canceladas desaparecen automáticamente.',
  },
  {
    path: '/dashboard/referir-cliente/',
    label: 'Referir cliente',
    help: 'Recomienda Flujo a tus clientes corporativos; para ellos la alianza no tiene costo.',
  },
];

export const CORPORATE_SECTIONS: readonly DashboardSection[] = [
  {
    path: '/dashboard/resumen-de-facturas/',
    label: 'Resumen de facturas',
    tooltip: 'Visualiza el estatus de cada factura',
    help: 'Consulta tus facturas y su estatus; las canceladas desaparecen automáticamente.',
  },
  {
    path: '/dashboard/pre-autorizacion/',
    label: 'Pre-autorización',
    tooltip: 'Autoriza las facturas que deseas que tus proveedores puedan adelantar',
    help: 'Autoriza facturas manualmente, con la plantilla descargable o con carga masiva de XML, con fecha de pago de hasta 90 días.',
  },
  {
    path: '/dashboard/solicitudes/',
    label: 'Solicitudes',
    tooltip: 'Revisa las facturas que tus proveedores desean adelantar',
    help: 'Revisa las solicitudes de tus proveedores y autorízalas o recházalas; tu proveedor recibe el aviso.',
  },
  {
    path: '/dashboard/estado-de-cuenta/',
    label: 'Estado de cuenta',
    help: 'Consulta tus saldos pendientes y las fechas de pago, y descarga las facturas seleccionadas.',
  },
  {
    path: '/dashboard/cotizacion/',
    label: 'Cotización',
    help: 'Revisa la cotización de las facturas que pre-autorizaste.',
    hidden: true,
  },
];

export function sectionsFor(role: Role): readonly DashboardSection[] {
  return role === 'corporate' ? CORPORATE_SECTIONS : PROVIDER_SECTIONS;
}

/** Spec §2: anything else redirects to the role's first screen. */
export function homePathFor(role: Role): string {
  return sectionsFor(role)[0]!.path;
}
