import { MAX_PAYMENT_DAYS } from './payment-date';

// Bulk authorization by file (issue 14): the XLSX template and a ZIP of CFDI XML. The limits a hostile file
// meets and the Spanish words of every refusal live here, once; the server enforces them, the browser may
// show them (docs/decisions/0032-bulk-uploads.md).

/** Default upload limit (UPLOAD_MAX_MB): a ZIP of 5,000 CFDI of about 4 KB compressed fits well under it. */
export const DEFAULT_UPLOAD_MAX_MB = 20;

/** At most this many entries in an uploaded ZIP (directories included). */
export const MAX_ZIP_ENTRIES = 5000;

/** Bound on the sum of the uncompressed sizes a ZIP declares (zip bomb). */
export const MAX_ZIP_UNCOMPRESSED_BYTES = 200 * 1024 * 1024;

/**
 * Bound on one entry's uncompressed / compressed size. NOTE: CFDI XML deflates about 3:1 and spreadsheet XML
 * rarely beyond 20:1; a ratio over 100 is what a zip bomb looks like.
 */
export const MAX_COMPRESSION_RATIO = 100;

/** Entries this small compress poorly anyway; their ratio is not judged (a 40-byte file in 1 byte is no bomb). */
export const RATIO_FREE_BYTES = 64 * 1024;

/** Rows of the template (and invoices it lists): one request, one transaction, a few seconds at most. */
export const MAX_TEMPLATE_ROWS = 5000;

/** Bound on what an XLSX declares uncompressed: 5,000 rows of the template weigh about 3 MB. */
export const MAX_XLSX_UNCOMPRESSED_BYTES = 40 * 1024 * 1024;

/** Entries of an XLSX: a workbook has a dozen parts; thousands would only cost memory. */
export const MAX_XLSX_ENTRIES = 200;

/** Bound on the shared-strings part of an XLSX (every text cell of the workbook, once each). */
export const MAX_XLSX_SHARED_STRINGS_BYTES = 8 * 1024 * 1024;

/** NOTE: the media types browsers send for a ZIP (spec §5), plus the generic one some systems send. */
export const ZIP_MEDIA_TYPES: readonly string[] = [
  'application/zip',
  'application/x-zip-compressed',
  'multipart/x-zip',
  'application/octet-stream',
];

export const XLSX_MEDIA_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** NOTE: what browsers send for an .xlsx (the Office type), plus the generic one some systems send. */
export const XLSX_MEDIA_TYPES: readonly string[] = [XLSX_MEDIA_TYPE, 'application/octet-stream'];

/** The template's sheet and columns, in order: Spanish headers, the upload finds columns by them. */
export const TEMPLATE_SHEET_NAME = 'Facturas';
export const TEMPLATE_COLUMNS = {
  fiscalFolio: 'Folio fiscal (UUID)',
  serieFolio: 'Serie-Folio',
  emitterRfc: 'RFC del proveedor',
  emitterName: 'Proveedor',
  emissionDate: 'Fecha de emisión',
  currency: 'Moneda',
  amount: 'Monto',
  paymentDate: 'Fecha de pago',
} as const;

/** The template's file name: templateFileName('2026-03-10') === 'plantilla-pre-autorizacion-2026-03-10.xlsx'. */
export function templateFileName(today: string): string {
  return `plantilla-pre-autorizacion-${today}.xlsx`;
}

function megabytes(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

/** Every Spanish refusal of the two uploads and the template, written once. */
export const BULK_UPLOAD_MESSAGES = {
  notMultipart: 'Envía el archivo como multipart/form-data.',
  fileMissing: (field: string) => `Falta el archivo (campo ${field}).`,
  tooManyFiles: 'Envía un solo archivo.',
  tooManyFields: 'La solicitud trae campos de más.',
  badMultipart: 'La solicitud multipart está mal formada.',
  empty: 'El archivo está vacío.',
  tooLarge: (maxBytes: number) => `El archivo excede el tamaño máximo de ${megabytes(maxBytes)}.`,
  notZip: 'El archivo no es un ZIP. Selecciona un archivo .zip con los XML de tus facturas.',
  notXlsx: 'El archivo no es un libro de Excel (.xlsx). Descarga la plantilla y súbela en el mismo formato.',
  damagedZip: 'El archivo ZIP está dañado o no se puede leer.',
  damagedXlsx: 'El archivo de Excel está dañado o no se puede leer.',
  tooManyEntries: (max: number) => `El ZIP contiene más de ${max.toLocaleString('en-US')} archivos.`,
  tooBigUncompressed: (maxBytes: number) =>
    `El contenido del archivo descomprimido excede ${megabytes(maxBytes)}; divídelo en archivos más pequeños.`,
  suspiciousRatio: (name: string) =>
    `El archivo ${name} está comprimido de forma anómala (posible bomba ZIP); no se procesó.`,
  sizeMismatch: (name: string) =>
    `El archivo ${name} no coincide con el tamaño que declara el ZIP; no se procesó.`,
  unsafePath: (name: string) => `El ZIP contiene una ruta no permitida: ${name}.`,
  encrypted: (name: string) => `El archivo ${name} está cifrado o usa una compresión no admitida.`,
  notXmlEntry: 'Solo se aceptan archivos XML (CFDI) dentro del ZIP.',
  noXml: 'El ZIP no contiene archivos XML.',
  zipRefused: (count: number) =>
    count === 1
      ? 'Un archivo del ZIP tiene errores; no se autorizó ni importó ninguna factura.'
      : `${count} archivos del ZIP tienen errores; no se autorizó ni importó ninguna factura.`,
  andMore: (count: number) => `…y ${count} más.`,
  foreignReceiver: (rfc: string) => `El receptor ${rfc} no es tu empresa.`,
  noAlliance: (rfc: string) => `El emisor ${rfc} no es un proveedor con alianza activa contigo.`,
  paymentDateProblem: (displayedDate: string, problem: string) =>
    `Fecha de pago ${displayedDate}: ${problem}`,
  otherReceiverInvoice: 'La factura ya está en Flujo a nombre de otro receptor.',
  noRfc: 'Tu empresa no tiene RFC vinculado; vincula tu cuenta con el SAT para cargar XML.',
  // XLSX template
  sheetTooLong: (rows: number, max: number) =>
    `La hoja declara ${rows.toLocaleString('en-US')} filas; el máximo es ${max.toLocaleString('en-US')}.`,
  xlsxDtd: 'El libro de Excel contiene declaraciones DOCTYPE o ENTITY, que no se permiten.',
  sharedStringsTooLarge: 'El libro de Excel tiene demasiado texto; usa la plantilla de Flujo.',
  noWorksheet: 'El libro de Excel no tiene ninguna hoja.',
  missingColumn: (header: string) =>
    `El archivo no es la plantilla de Flujo: falta la columna «${header}» en la primera fila.`,
  noPaymentDates:
    'La plantilla no tiene ninguna fecha de pago: escribe la fecha de las facturas a autorizar.',
  cell: (row: number, header: string, message: string) => `Fila ${row}, columna «${header}»: ${message}`,
  formula: 'contiene una fórmula; escribe el valor.',
  uuidMissing: 'falta el folio fiscal.',
  notReceived: 'la factura no está entre tus facturas recibidas.',
  repeated: (row: number) => `la factura ya aparece en la fila ${row}.`,
  templateTruncated: (max: number) =>
    `La plantilla lista tus ${max.toLocaleString('en-US')} facturas más recientes que puedes pre-autorizar.`,
  dateValidationTitle: 'Fecha de pago',
  dateValidationError: `La fecha de pago debe estar entre la fecha de emisión y ${MAX_PAYMENT_DAYS} días después.`,
} as const;

// The browser's first check of a chosen or dropped file (spec §5); the server checks again, with magic bytes.

/** What the browser knows of a chosen file before reading it. */
export interface ChosenFileFacts {
  name: string;
  /** The media type the browser guessed ('' when it has none). */
  type: string;
}

/**
 * The browser's alert on a file of the wrong kind (spec §5 gives them in English: 'Please select a ZIP file.';
 * issue 33 and decision 0065 put them in Spanish). Choosing a wrong file says what the server's 415 says, one
 * message for both; a drop says so in its own verb.
 */
export const FILE_KIND_MESSAGES = {
  selectZip: BULK_UPLOAD_MESSAGES.notZip,
  dropZip: 'El archivo no es un ZIP. Arrastra un archivo .zip con los XML de tus facturas.',
  selectXlsx: BULK_UPLOAD_MESSAGES.notXlsx,
} as const;

function hasExtension(name: string, extension: string): boolean {
  return name.toLowerCase().endsWith(extension);
}

/**
 * A ZIP by its name (.zip) and media type: one of ZIP_MEDIA_TYPES, or none at all (some systems send none).
 * Example: isZipFile({ name: 'facturas.zip', type: 'application/zip' }) === true; a .pdf is false.
 */
export function isZipFile(file: ChosenFileFacts): boolean {
  return hasExtension(file.name, '.zip') && (file.type === '' || ZIP_MEDIA_TYPES.includes(file.type));
}

/** An Excel workbook (.xlsx) by name and media type, as isZipFile; an .xls or .csv is not one. */
export function isXlsxFile(file: ChosenFileFacts): boolean {
  return hasExtension(file.name, '.xlsx') && (file.type === '' || XLSX_MEDIA_TYPES.includes(file.type));
}
