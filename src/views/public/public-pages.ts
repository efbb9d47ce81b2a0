// Every public page's address, document title and description (the prerendered <head>, decision 0007).

export const PUBLIC_PAGES = {
  '/inicio/': {
    title: 'Flujo · Pronto pago y factoraje para proveedores en México',
    description:
      'Adelanta el cobro de las facturas que emites a grandes empresas: registro en menos de 10 minutos, pago en ' +
      'menos de 2 horas y sin endeudarte. Para el comprador, la alianza no tiene costo.',
  },
  '/proveedores/': {
    title: 'Proveedores · Cobra tus facturas antes con Flujo',
    description:
      'Pronto pago y factoraje para proveedores: elige qué facturas adelantar y cuándo, con fechas de pago de ' +
      'hasta 90 días y una tasa preferencial gracias a la alianza con tu cliente.',
  },
  '/compradores/': {
    title: 'Compradores · Fortalece a tus proveedores sin costo | Flujo',
    description:
      'Preautoriza facturas, revisa solicitudes de adelanto y cotiza pagos anticipados. Para la empresa ' +
      'compradora la alianza con Flujo no tiene costo.',
  },
  '/alianzas-corporativas/': {
    title: 'Alianzas corporativas · Flujo',
    description:
      'Una alianza con Flujo permite a tus proveedores cobrar antes sin cambiar tus condiciones de pago. ' +
      'Sin costo para tu empresa. Solicita una demostración.',
  },
  '/calculadora/': {
    title: 'Calculadora de pronto pago · Flujo',
    description:
      'Calcula cuánto recibes hoy por una factura: monto, plazo y tasa anual (tasa + IVA), con el mismo cálculo ' +
      'que usa la plataforma.',
  },
  '/contacto/': {
    title: 'Contacto · Flujo',
    description:
      'Escríbenos por correo o por WhatsApp. Te ayudamos a adelantar tus facturas o a crear una alianza.',
  },
  '/solicitar-demo/': {
    title: 'Solicitar demo · Flujo',
    description:
      'Agenda una demostración de Flujo: un especialista te muestra cómo adelantar facturas o preautorizarlas ' +
      'para tus proveedores.',
  },
  '/terminos-y-condiciones/': {
    title: 'Términos y Condiciones · Flujo',
    description: 'Términos y condiciones de uso de la plataforma Flujo de pronto pago y factoraje.',
  },
  '/politicas-de-privacidad/': {
    title: 'Aviso de privacidad · Flujo',
    description:
      'Aviso de privacidad integral de Flujo conforme a la Ley Federal de Protección de Datos Personales en ' +
      'Posesión de los Particulares, y cómo ejercer tus derechos ARCO.',
  },
  '/politica-de-proteccion-de-datos/': {
    title: 'Política de protección de datos · Flujo',
    description:
      'Cómo protege Flujo la información de proveedores y compradores: cifrado, control de acceso, ' +
      'credenciales del SAT, conservación y atención de incidentes.',
  },
  '/requisitos/': {
    title: 'Requisitos para una alianza corporativa · Flujo',
    description:
      'Lista de documentos e información para dar de alta a tu empresa como comprador aliado en Flujo. ' +
      'Descárgala en PDF.',
  },
  // The login screen is prerendered like the public pages (decision 0026); the app's route shows the same view.
  '/auth/ingresar/': {
    title: 'Ingresar · Flujo',
    description:
      'Ingresa a Flujo con tu usuario y contraseña para adelantar el cobro de tus facturas o revisar las ' +
      'solicitudes de tus proveedores.',
  },
} as const satisfies Record<string, { title: string; description: string }>;

export type PublicPath = keyof typeof PUBLIC_PAGES;

export const PUBLIC_PATHS = Object.keys(PUBLIC_PAGES) as PublicPath[];

export function isPublicPath(path: string): path is PublicPath {
  return Object.hasOwn(PUBLIC_PAGES, path);
}
