// SPEI orders, the bank layout and the bank's result file (decision 0054).
// NOTE: field names and limits follow STP's outgoing order as modelled by stpmex (research
// financier-back-office §3.5): trackingKey ≤ 30 alphanumeric, numericReference 1-7 digits,
// nombreBeneficiario ≤ 39, conceptoPago ≤ 39, rfcCurpBeneficiario ≤ 18 ('ND' when unknown),
// tipoCuentaBeneficiario 40 for a CLABE, counterpartyInstitution 5 digits (40012 BBVA, 90646 STP).

export const SPEI_NAME_MAX = 39;
export const SPEI_CONCEPT_MAX = 39;
export const SPEI_TRACKING_KEY_MAX = 30;
export const SPEI_REFERENCE_MAX = 9_999_999;
export const SPEI_RFC_UNKNOWN = 'ND';
/** NOTE: tipoCuentaBeneficiario of a CLABE (STP). */
export const SPEI_ACCOUNT_TYPE_CLABE = '40';

/** A generated clave de rastreo: letters and digits only. */
export const TRACKING_KEY_PATTERN = /^[A-Za-z0-9]{1,30}$/;

/** SPEI text fields: upper case, accents and symbols the bank portals reject removed, cut to `max`. */
export function speiText(text: string, max: number): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toUpperCase()
    .replace(/[^A-Z0-9 .,-]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, max)
    .trim();
}

/** The clave de rastreo of an invoice's order in a batch: unique because a batch holds an invoice once. */
export function trackingKey(batchId: number, invoiceId: number): string {
  return `FLUJO${batchId}F${invoiceId}`;
}

/** The referencia numérica (1-7 digits) of an invoice's order: its id, folded into range. */
export function numericReference(invoiceId: number): number {
  return (invoiceId % SPEI_REFERENCE_MAX) + 1;
}

/** The concepto of an advance's order. */
export function speiConcept(invoiceLabel: string): string {
  return speiText(`ADELANTO FACTURA ${invoiceLabel}`, SPEI_CONCEPT_MAX);
}

/**
 * The institución contraparte of a CLABE: 40 + its bank code for banks, 90 + its code for other participants
 * (6xx codes, STP's 646 → 90646). NOTE: inferred from the research's two examples (40012, 90646).
 */
export function counterpartyInstitution(clabe: string): string {
  const code = clabe.slice(0, 3);
  return `${code.startsWith('6') ? '90' : '40'}${code}`;
}

export interface SpeiOrderLine {
  clave_rastreo: string;
  referencia_numerica: number;
  beneficiary_name: string;
  beneficiary_clabe: string | null;
  beneficiary_rfc: string;
  amount: string;
  concepto: string;
}

/** The bank layout's columns, in order (documented in decision 0054). */
export const LAYOUT_COLUMNS = [
  'clave_rastreo',
  'referencia_numerica',
  'institucion_contraparte',
  'tipo_cuenta_beneficiario',
  'cuenta_beneficiario',
  'nombre_beneficiario',
  'rfc_curp_beneficiario',
  'monto',
  'concepto_pago',
] as const;

export function csvField(value: string): string {
  return /[",\r\n]/.test(value) ? `"${value.replaceAll('"', '""')}"` : value;
}

/** The layout CSV to load in the bank's portal: a header and one line per order, CRLF line ends. */
export function layoutCsv(orders: readonly SpeiOrderLine[]): string {
  const lines = [LAYOUT_COLUMNS.join(',')];
  for (const order of orders) {
    const clabe = order.beneficiary_clabe ?? '';
    lines.push(
      [
        order.clave_rastreo,
        String(order.referencia_numerica),
        clabe === '' ? '' : counterpartyInstitution(clabe),
        SPEI_ACCOUNT_TYPE_CLABE,
        clabe,
        order.beneficiary_name,
        order.beneficiary_rfc,
        order.amount,
        order.concepto,
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${lines.join('\r\n')}\r\n`;
}

// --- The bank's result file ---

/** NOTE: our own bounds, so a wrong file cannot tie up the server. */
export const RESULT_FILE_MAX_BYTES = 256 * 1024;
export const RESULT_FILE_MAX_LINES = 5_000;
export const RESULT_REASON_MAX = 200;

export const RESULT_COLUMNS = ['clave_rastreo', 'estado', 'motivo'] as const;
export type ResultColumn = (typeof RESULT_COLUMNS)[number];
export type SettlementState = 'liquidada' | 'devuelta';

/** An order's state as stored and sent: pending until the bank's file settles or returns it. */
export type SpeiOrderState = 'pendiente' | SettlementState;

/** What an operator reads for each order state (the one home of these labels). */
export const SPEI_ORDER_STATE_LABELS: Readonly<Record<SpeiOrderState, string>> = {
  pendiente: 'Pendiente',
  liquidada: 'Liquidada',
  devuelta: 'Devuelta',
};

export interface ResultLine {
  line: number;
  trackingKey: string;
  estado: SettlementState;
  motivo: string | null;
}

export type ResultParse = { ok: true; lines: ResultLine[] } | { ok: false; errors: string[] };

/** Splits one CSV line into fields (double quotes, doubled quotes inside). Null when a quote is left open. */
export function splitCsvLine(line: string): string[] | null {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i];
    if (quoted) {
      if (char === '"' && line[i + 1] === '"') {
        field += '"';
        i++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"' && field === '') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  if (quoted) return null;
  fields.push(field);
  return fields.map((value) => value.trim());
}

/**
 * Reads the bank's result file: a header `clave_rastreo,estado,motivo` and one line per order, estado
 * liquidada or devuelta (a devuelta needs its motivo). Every bad line is reported ("Línea 3: …"), numbered
 * as in the file; blank lines are skipped. Whether each clave belongs to the batch is the server's to say.
 */
export function parseResultFile(text: string): ResultParse {
  const rows = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const errors: string[] = [];
  const header = splitCsvLine(rows[0] ?? '')?.map((name) => name.toLowerCase());
  if (!header || RESULT_COLUMNS.some((name, i) => header[i] !== name) || header.length > 3) {
    return { ok: false, errors: [`Línea 1: el encabezado debe ser «${RESULT_COLUMNS.join(',')}».`] };
  }
  if (rows.length - 1 > RESULT_FILE_MAX_LINES) {
    return { ok: false, errors: [`El archivo excede ${RESULT_FILE_MAX_LINES} líneas.`] };
  }
  const lines: ResultLine[] = [];
  const seen = new Map<string, number>();
  rows.slice(1).forEach((raw, index) => {
    const line = index + 2;
    if (raw.trim() === '') return;
    const fields = splitCsvLine(raw);
    if (!fields || fields.length < 2 || fields.length > 3) {
      errors.push(`Línea ${line}: se esperaban 3 columnas (clave_rastreo, estado, motivo).`);
      return;
    }
    const [clave = '', estadoText = '', motivoText = ''] = fields;
    const estado = estadoText.toLowerCase();
    const problems: string[] = [];
    if (!TRACKING_KEY_PATTERN.test(clave)) problems.push('la clave de rastreo no es válida');
    if (estado !== 'liquidada' && estado !== 'devuelta')
      problems.push('el estado debe ser liquidada o devuelta');
    if (estado === 'devuelta' && motivoText === '') problems.push('una orden devuelta necesita su motivo');
    if (motivoText.length > RESULT_REASON_MAX)
      problems.push(`el motivo excede ${RESULT_REASON_MAX} caracteres`);
    const earlier = seen.get(clave);
    if (earlier !== undefined) problems.push(`la clave ${clave} ya aparece en la línea ${earlier}`);
    if (problems.length > 0) {
      errors.push(`Línea ${line}: ${problems.join('; ')}.`);
      return;
    }
    seen.set(clave, line);
    lines.push({
      line,
      trackingKey: clave,
      estado: estado as SettlementState,
      motivo: motivoText === '' ? null : motivoText,
    });
  });
  if (errors.length > 0) return { ok: false, errors };
  if (lines.length === 0) return { ok: false, errors: ['El archivo no tiene ninguna línea de resultado.'] };
  return { ok: true, lines };
}

// --- The result file as the disbursements screen documents it (issue 33) ---

/** What each column of the bank's result file holds, in the operator's words. */
export const RESULT_COLUMN_MEANINGS: Readonly<Record<ResultColumn, string>> = {
  clave_rastreo: 'La clave de rastreo de la orden, como aparece en el lote y en su layout.',
  estado: 'liquidada (el banco depositó) o devuelta (el banco la regresó).',
  motivo: `Por qué el banco la devolvió: obligatorio si es devuelta, vacío si es liquidada (hasta ${RESULT_REASON_MAX} caracteres).`,
};

/** A result file's line as it is written (the same fields parseResultFile reads back). */
export type ResultFileLine = Pick<ResultLine, 'trackingKey' | 'estado' | 'motivo'>;

/** Example lines of the sample file: one order settled, one returned with the bank's reason. */
export const RESULT_FILE_SAMPLE: readonly ResultFileLine[] = [
  { trackingKey: trackingKey(12, 345), estado: 'liquidada', motivo: null },
  { trackingKey: trackingKey(12, 346), estado: 'devuelta', motivo: 'Cuenta inexistente' },
];

/** A result file as the bank must send it: the header, one line per order, CRLF line ends. */
export function resultFileCsv(lines: readonly ResultFileLine[]): string {
  const rows = [RESULT_COLUMNS.join(',')];
  for (const line of lines)
    rows.push([line.trackingKey, line.estado, line.motivo ?? ''].map(csvField).join(','));
  return `${rows.join('\r\n')}\r\n`;
}
