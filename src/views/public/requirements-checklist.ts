// The corporate alliance checklist: the /requisitos/ page shows it and scripts/requirements-pdf.ts prints it
// into the PDF the page embeds, so the two can never disagree. Plain data: the PDF script runs in Node.

export const REQUIREMENTS_PDF_PATH = '/documentos/requisitos-alianza-corporativa.pdf';
export const REQUIREMENTS_TITLE = 'Requisitos para una alianza corporativa';

export interface RequirementGroup {
  title: string;
  items: readonly string[];
}

export const REQUIREMENT_GROUPS: readonly RequirementGroup[] = [
  {
    title: 'Documentación de la empresa',
    items: [
      'Acta constitutiva y, en su caso, las modificaciones que cambien la denominación, el objeto o la administración.',
      'Poder notarial de la persona que firmará el convenio, con facultades de administración.',
      'Identificación oficial vigente (INE o pasaporte) de quien firma.',
      'Constancia de situación fiscal con antigüedad no mayor a tres meses.',
      'Comprobante de domicilio fiscal con antigüedad no mayor a tres meses.',
      'Opinión de cumplimiento de obligaciones fiscales del SAT en sentido positivo.',
    ],
  },
  {
    title: 'Vinculación con el SAT',
    items: [
      'RFC de la empresa.',
      'Contraseña del SAT (CIEC) de la empresa, para leer las facturas que recibe de sus proveedores.',
    ],
  },
  {
    title: 'Información para operar',
    items: [
      'Listado de proveedores que se invitarán: razón social, RFC y contacto de cobranza.',
      'Plazos de pago habituales (30, 60, 90 días u otros) y volumen mensual aproximado de facturas.',
      'Cuenta bancaria desde la que se pagarán las facturas en su fecha de pago.',
    ],
  },
  {
    title: 'Personas de contacto',
    items: [
      'Tesorería: autoriza facturas y recibe las solicitudes de adelanto.',
      'Cuentas por pagar: resuelve dudas sobre facturas y fechas de pago.',
      'Representante legal: revisa y firma el convenio de alianza.',
    ],
  },
];

export const REQUIREMENTS_NOTES: readonly string[] = [
  'La alianza no tiene costo para la empresa compradora.',
  'Los documentos se envían en PDF legible; los revisamos y te avisamos si falta algo.',
  'Tratamos la información conforme al aviso de privacidad publicado en el sitio de Flujo.',
];
