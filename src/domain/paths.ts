/**
 * Every page address of spec §2, the one place the router's redirects and guards, the dashboard sidebar and
 * the server's e-mail links take them from. Each ends in '/': the router runs with `trailingSlash: 'always'`
 * and the server serves each page as a folder. `as const`, so a value's type is its literal path and the
 * router's typed `to` checks it against the route tree.
 */
export const paths = {
  root: '/',
  // Public pages.
  home: '/inicio/',
  buyers: '/compradores/',
  providers: '/proveedores/',
  contact: '/contacto/',
  demoRequest: '/solicitar-demo/',
  corporateAlliances: '/alianzas-corporativas/',
  calculator: '/calculadora/',
  terms: '/terminos-y-condiciones/',
  privacy: '/politicas-de-privacidad/',
  dataProtection: '/politica-de-proteccion-de-datos/',
  requirements: '/requisitos/',
  diagrams: '/diagramas/',
  // Signed-in pages outside the dashboard.
  profile: '/editar-perfil/',
  passwordChange: '/cambiar-clave/',
  // Auth pages.
  login: '/auth/ingresar/',
  signUp: '/auth/registro/',
  resetRequest: '/auth/recuperar-contrasena/',
  newPassword: '/auth/reiniciar-contrasena/',
  // Dashboard, both roles.
  dashboard: '/dashboard/',
  accountStatement: '/dashboard/estado-de-cuenta/',
  // Provider dashboard.
  satCredentials: '/dashboard/sat-credentials/',
  prontoPago: '/dashboard/pronto-pago/',
  advancedInvoices: '/dashboard/facturas-pronto-pago/',
  factoring: '/dashboard/factoraje/',
  knowYourCompany: '/dashboard/conoce-tu-empresa/',
  receivables: '/dashboard/cuentas-por-cobrar/',
  referClient: '/dashboard/referir-cliente/',
  // Corporate dashboard.
  invoiceSummary: '/dashboard/resumen-de-facturas/',
  preAuthorization: '/dashboard/pre-autorizacion/',
  requests: '/dashboard/solicitudes/',
  quotation: '/dashboard/cotizacion/',
  // The financier's back office (issue 19), for Flujo's operators.
  operatorLogin: '/operacion/ingresar/',
  operatorHome: '/operacion/',
  operatorDesk: '/operacion/mesa/',
  operatorDisbursements: '/operacion/dispersiones/',
  operatorCollections: '/operacion/cobranza/',
  operatorCorporates: '/operacion/corporativos/',
  operatorProgrammes: '/operacion/programas/',
  operatorExposure: '/operacion/exposicion/',
  operatorPortfolio: '/operacion/cartera/',
  operatorAlliances: '/operacion/alianzas/',
  operatorInbox: '/operacion/bandeja/',
  operatorAudit: '/operacion/bitacora/',
  operatorMaturities: '/operacion/vencimientos/',
} as const;

export type AppPath = (typeof paths)[keyof typeof paths];
