import { paths } from '../../domain/paths';

/** The back office's sections, in the order of the day's work: the nav and the index route read this list. */
export const OPERATOR_SECTIONS = [
  { to: paths.operatorDesk, label: 'Mesa de control' },
  { to: paths.operatorDisbursements, label: 'Dispersiones' },
  { to: paths.operatorMaturities, label: 'Vencimientos' },
  { to: paths.operatorCollections, label: 'Cobranza' },
  { to: paths.operatorPortfolio, label: 'Cartera' },
  { to: paths.operatorCorporates, label: 'Corporativos' },
  { to: paths.operatorProgrammes, label: 'Programas' },
  { to: paths.operatorExposure, label: 'Exposición' },
  { to: paths.operatorAlliances, label: 'Alianzas' },
  { to: paths.operatorInbox, label: 'Bandeja' },
  { to: paths.operatorAudit, label: 'Bitácora' },
] as const;
