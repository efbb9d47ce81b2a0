import {
  BankAccountIcon,
  CalculatorIcon,
  EndorsedIcon,
  FlashIcon,
  ImportIcon,
  InboxSearchIcon,
  NewPersonIcon,
  OfficeIcon,
  PropertiesIcon,
  SavedIcon,
  type SVGIconProps,
  TimelineBarChartIcon,
} from '@blueprintjs/icons';
import type { FC } from 'react';
import { type AppPath, paths } from '../../domain/paths';
import type { Role } from '../../stores/user.store';

export interface DashboardSection {
  path: AppPath;
  label: string;
  /** The sidebar's icon: a component, not a name, so only the icons used reach the bundle. */
  icon: FC<SVGIconProps>;
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
    path: paths.prontoPago,
    icon: FlashIcon,
    label: 'Pronto Pago',
    help: 'Visualiza tus cuentas por cobrar y adelanta su pago con una tasa preferencial.',
  },
  {
    path: paths.advancedInvoices,
    icon: SavedIcon,
    label: 'Facturas adelantadas',
    help: 'Consulta las facturas que ya adelantaste y descarga su XML o PDF.',
  },
  {
    path: paths.factoring,
    icon: BankAccountIcon,
    label: 'Factoraje',
    help: 'Cobra tus facturas hoy y elige el plazo en que pagas tu línea revolvente.',
  },
  {
    path: paths.accountStatement,
    icon: PropertiesIcon,
    label: 'Estado de cuenta',
    help: 'Consulta tus saldos pendientes y las fechas de pago.',
    onlyForCorporateAccounts: true,
  },
  {
    path: paths.knowYourCompany,
    icon: OfficeIcon,
    label: 'Conoce tu empresa',
    help: 'Revisa tus cuentas por cobrar, tus cuentas por pagar y los indicadores de tu empresa.',
  },
  {
    path: paths.receivables,
    icon: ImportIcon,
    label: 'Cuentas por cobrar',
    help: 'Consulta tus facturas y su estatus; las canceladas desaparecen automáticamente.',
  },
  {
    path: paths.referClient,
    icon: NewPersonIcon,
    label: 'Referir cliente',
    help: 'Recomienda Flujo a tus clientes corporativos; para ellos la alianza no tiene costo.',
  },
];

export const CORPORATE_SECTIONS: readonly DashboardSection[] = [
  {
    path: paths.invoiceSummary,
    icon: TimelineBarChartIcon,
    label: 'Resumen de facturas',
    tooltip: 'Visualiza el estatus de cada factura',
    help: 'Consulta tus facturas y su estatus; las canceladas desaparecen automáticamente.',
  },
  {
    path: paths.preAuthorization,
    icon: EndorsedIcon,
    label: 'Pre-autorización',
    tooltip: 'Autoriza las facturas que deseas que tus proveedores puedan adelantar',
    help: 'Autoriza facturas manualmente, con la plantilla descargable o con carga masiva de XML, con fecha de pago de hasta 90 días.',
  },
  {
    path: paths.requests,
    icon: InboxSearchIcon,
    label: 'Solicitudes',
    tooltip: 'Revisa las facturas que tus proveedores desean adelantar',
    help: 'Revisa las solicitudes de tus proveedores y autorízalas o recházalas; tu proveedor recibe el aviso.',
  },
  {
    path: paths.accountStatement,
    icon: PropertiesIcon,
    label: 'Estado de cuenta',
    help: 'Consulta tus saldos pendientes y las fechas de pago, y descarga las facturas seleccionadas.',
  },
  {
    path: paths.quotation,
    icon: CalculatorIcon,
    label: 'Cotización',
    help: 'Revisa la cotización de las facturas que pre-autorizaste.',
    hidden: true,
  },
];

export function sectionsFor(role: Role): readonly DashboardSection[] {
  return role === 'corporate' ? CORPORATE_SECTIONS : PROVIDER_SECTIONS;
}
