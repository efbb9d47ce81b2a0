import { displayDate, type IsoDate, parseIsoDate } from './calendar-date';
import { batchOfReference, collectionReference } from './maturities';
import { type Centavos, formatMoneyAmount, formatMxn, parseMoney } from './money';
import { checkRfc } from './rfc';
import { csvField, SPEI_CONCEPT_MAX, SPEI_NAME_MAX, splitCsvLine } from './spei';

// The bank's statement of incoming SPEI (issue 34, decision 0067): the file an operator uploads at
// /operacion/cobranza/, how it is read, and the one rule that matches each payment to what a buyer owes.
// The server reads the facts (batches, buyers, outstanding invoices) and applies what matchPayments decides.

/** NOTE: our own bounds, so a wrong file cannot tie up the server; a day of a lender's incoming SPEI fits. */
export const BANK_STATEMENT_MAX_BYTES = 4 * 1024 * 1024;
export const BANK_STATEMENT_MAX_LINES = 20_000;
/** NOTE: SPEI's referencia numérica is 1-7 digits; a bank may also put an alphanumeric one here. */
export const BANK_REFERENCE_MAX = 40;
/** A clave de rastreo as SPEI carries it (letters and digits, at most 30). */
export const BANK_TRACKING_KEY_PATTERN = /^[A-Za-z0-9]{1,30}$/;

export const BANK_STATEMENT_COLUMNS = [
  'fecha',
  'clave_rastreo',
  'monto',
  'rfc_ordenante',
  'nombre_ordenante',
  'referencia',
  'concepto',
] as const;
export type BankStatementColumn = (typeof BANK_STATEMENT_COLUMNS)[number];

/** What each column of the bank's statement holds, in the operator's words (shown on the screen). */
export const BANK_STATEMENT_COLUMN_MEANINGS: Readonly<Record<BankStatementColumn, string>> = {
  fecha: 'El día en que el banco recibió el SPEI, como AAAA-MM-DD.',
  clave_rastreo:
    'La clave de rastreo del SPEI (letras y números, hasta 30): cada clave se aplica una sola vez, aunque el archivo se cargue de nuevo.',
  monto: 'Lo que se recibió, en pesos con punto decimal y hasta dos decimales (por ejemplo 10000.00).',
  rfc_ordenante:
    'El RFC de quien pagó: identifica al corporativo cuando la referencia no nombra un lote de vencimientos.',
  nombre_ordenante: `El nombre de quien pagó, como lo reporta el banco (hasta ${SPEI_NAME_MAX} caracteres).`,
  referencia:
    'La referencia numérica de 7 dígitos que Flujo dio al corporativo para sus facturas que vencen un día; vacía si no la puso.',
  concepto: `El concepto del pago (hasta ${SPEI_CONCEPT_MAX} caracteres); se guarda, no decide nada.`,
};

export interface BankStatementLine {
  line: number;
  fecha: IsoDate;
  claveRastreo: string;
  amount: Centavos;
  rfcOrdenante: string | null;
  nombreOrdenante: string;
  referencia: string;
  concepto: string;
}

export type BankStatementParse = { ok: true; lines: BankStatementLine[] } | { ok: false; errors: string[] };

export const BANK_STATEMENT_MESSAGES = {
  header: `Línea 1: el encabezado debe ser «${BANK_STATEMENT_COLUMNS.join(',')}».`,
  tooManyLines: `El archivo excede ${BANK_STATEMENT_MAX_LINES.toLocaleString('en-US')} líneas.`,
  empty: 'El archivo no tiene ningún pago.',
  columns: (line: number) => `Línea ${line}: se esperaban 7 columnas (${BANK_STATEMENT_COLUMNS.join(', ')}).`,
  fecha: 'la fecha debe ser AAAA-MM-DD',
  fechaAfterToday: (today: IsoDate) => `la fecha no puede ser posterior a hoy (${displayDate(today)})`,
  clave: 'la clave de rastreo debe tener solo letras y números (hasta 30)',
  monto: 'el monto debe ser un importe positivo con hasta dos decimales (por ejemplo 10000.00)',
  rfc: 'el RFC del ordenante no es válido',
  nombre: `el nombre del ordenante excede ${SPEI_NAME_MAX} caracteres`,
  referencia: `la referencia excede ${BANK_REFERENCE_MAX} caracteres`,
  concepto: `el concepto excede ${SPEI_CONCEPT_MAX} caracteres`,
  repeatedInFile: (clave: string, earlier: number) => `la clave ${clave} ya aparece en la línea ${earlier}`,
} as const;

const AMOUNT_TEXT = /^\d{1,15}(\.\d{1,2})?$/;

/**
 * Reads the bank's statement: the header `fecha,clave_rastreo,monto,rfc_ordenante,nombre_ordenante,referencia,
 * concepto` and one line per incoming SPEI. Every bad line is reported ("Línea 3: …"), numbered as in the file;
 * blank lines are skipped. Whether each payment matches anything is matchPayments' to say.
 */
export function parseBankStatement(text: string, today: IsoDate): BankStatementParse {
  const rows = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const header = splitCsvLine(rows[0] ?? '')?.map((name) => name.toLowerCase());
  if (
    !header ||
    header.length !== BANK_STATEMENT_COLUMNS.length ||
    BANK_STATEMENT_COLUMNS.some((name, i) => header[i] !== name)
  )
    return { ok: false, errors: [BANK_STATEMENT_MESSAGES.header] };
  if (rows.length - 1 > BANK_STATEMENT_MAX_LINES)
    return { ok: false, errors: [BANK_STATEMENT_MESSAGES.tooManyLines] };
  const errors: string[] = [];
  const lines: BankStatementLine[] = [];
  const seen = new Map<string, number>();
  rows.slice(1).forEach((raw, index) => {
    const line = index + 2;
    if (raw.trim() === '') return;
    const fields = splitCsvLine(raw);
    if (!fields || fields.length !== BANK_STATEMENT_COLUMNS.length) {
      errors.push(BANK_STATEMENT_MESSAGES.columns(line));
      return;
    }
    const [fecha = '', clave = '', monto = '', rfcText = '', nombre = '', referencia = '', concepto = ''] =
      fields;
    const problems: string[] = [];
    if (!parseIsoDate(fecha)) problems.push(BANK_STATEMENT_MESSAGES.fecha);
    else if (fecha > today) problems.push(BANK_STATEMENT_MESSAGES.fechaAfterToday(today));
    if (!BANK_TRACKING_KEY_PATTERN.test(clave)) problems.push(BANK_STATEMENT_MESSAGES.clave);
    const amount = AMOUNT_TEXT.test(monto) ? parseMoney(monto) : 0;
    if (amount <= 0) problems.push(BANK_STATEMENT_MESSAGES.monto);
    const rfc = rfcText === '' ? null : checkRfc(rfcText);
    if (rfc && !rfc.ok) problems.push(BANK_STATEMENT_MESSAGES.rfc);
    if (nombre.length > SPEI_NAME_MAX) problems.push(BANK_STATEMENT_MESSAGES.nombre);
    if (referencia.length > BANK_REFERENCE_MAX) problems.push(BANK_STATEMENT_MESSAGES.referencia);
    if (concepto.length > SPEI_CONCEPT_MAX) problems.push(BANK_STATEMENT_MESSAGES.concepto);
    const earlier = seen.get(clave);
    if (earlier !== undefined) problems.push(BANK_STATEMENT_MESSAGES.repeatedInFile(clave, earlier));
    if (problems.length > 0) {
      errors.push(`Línea ${line}: ${problems.join('; ')}.`);
      return;
    }
    seen.set(clave, line);
    lines.push({
      line,
      fecha,
      claveRastreo: clave,
      amount,
      rfcOrdenante: rfc?.ok ? rfc.rfc : null,
      nombreOrdenante: nombre,
      referencia,
      concepto,
    });
  });
  if (errors.length > 0) return { ok: false, errors };
  if (lines.length === 0) return { ok: false, errors: [BANK_STATEMENT_MESSAGES.empty] };
  return { ok: true, lines };
}

/** A statement line as it is written (the fields parseBankStatement reads back). */
export type BankStatementFileLine = Omit<BankStatementLine, 'line'>;

/** A statement as the bank must send it: the header, one line per payment, CRLF line ends. */
export function bankStatementCsv(lines: readonly BankStatementFileLine[]): string {
  const rows = [BANK_STATEMENT_COLUMNS.join(',')];
  for (const line of lines)
    rows.push(
      [
        line.fecha,
        line.claveRastreo,
        formatMoneyAmount(line.amount),
        line.rfcOrdenante ?? '',
        line.nombreOrdenante,
        line.referencia,
        line.concepto,
      ]
        .map(csvField)
        .join(','),
    );
  return `${rows.join('\r\n')}\r\n`;
}

/** Example lines of the sample file: a payment with its batch's reference, and one identified by RFC alone. */
export const BANK_STATEMENT_SAMPLE: readonly BankStatementFileLine[] = [
  {
    fecha: '2026-11-17',
    claveRastreo: 'BNET01202611170001',
    amount: 1_250_000_00,
    rfcOrdenante: 'CAMA911215CJ0',
    nombreOrdenante: 'CORPORATIVO EJEMPLO SA DE CV',
    referencia: collectionReference(42),
    concepto: 'PAGO FACTURAS VENCIMIENTO',
  },
  {
    fecha: '2026-11-17',
    claveRastreo: 'BNET01202611170002',
    amount: 10_000_00,
    rfcOrdenante: 'CAMA911215CJ0',
    nombreOrdenante: 'CORPORATIVO EJEMPLO SA DE CV',
    referencia: '',
    concepto: 'PAGO FACTURA A123',
  },
];

// --- Matching a payment to what a buyer owes ---

/** What became of one payment line (the answer counts each kind). */
export const PAYMENT_KINDS = ['exacta', 'parcial', 'sobrepago', 'no_identificada', 'repetida'] as const;
export type PaymentKind = (typeof PAYMENT_KINDS)[number];

export const PAYMENT_KIND_LABELS: Readonly<Record<PaymentKind, string>> = {
  exacta: 'Exacta',
  parcial: 'Parcial',
  sobrepago: 'Sobrepago',
  no_identificada: 'No identificada',
  repetida: 'Repetida',
};

/** An advanced invoice with something outstanding, as the matching reads it. */
export interface OpenInvoice {
  id: number;
  corporateId: number;
  dueOn: IsoDate;
  outstanding: Centavos;
}

/** Where a payment may go: the batch its reference names, or the buyer whose RFC ordered it. */
export interface PaymentCandidates {
  /** The batch the reference names (its buyer and its invoices with something outstanding), or null. */
  batch: { corporateId: number; invoices: readonly OpenInvoice[] } | null;
  /** The buyer whose RFC is rfc_ordenante (its invoices with something outstanding), or null. */
  buyer: { corporateId: number; invoices: readonly OpenInvoice[] } | null;
}

export interface Allocation {
  invoiceId: number;
  amount: Centavos;
}

export type PaymentMatch =
  | {
      kind: 'exacta' | 'parcial' | 'sobrepago';
      corporateId: number;
      allocations: Allocation[];
      /** The part above what the batch owed: the buyer's saldo a favor. */
      excess: Centavos;
    }
  | { kind: 'no_identificada' };

function byDueThenId(a: OpenInvoice, b: OpenInvoice): number {
  return a.dueOn < b.dueOn ? -1 : a.dueOn > b.dueOn ? 1 : a.id - b.id;
}

/**
 * Applies `amount` to `invoices` oldest due first: each takes at most what it owes; what is left over is the
 * excess. Example: allocateOldestFirst(150, [{id 1, owes 100}, {id 2, owes 100}]) → 1 ← 100, 2 ← 50, excess 0.
 */
export function allocateOldestFirst(
  amount: Centavos,
  invoices: readonly OpenInvoice[],
): { allocations: Allocation[]; owed: Centavos; excess: Centavos } {
  let left = amount;
  let owed = 0;
  const allocations: Allocation[] = [];
  for (const invoice of [...invoices].sort(byDueThenId)) {
    if (invoice.outstanding <= 0) continue;
    owed += invoice.outstanding;
    if (left <= 0) continue;
    const take = Math.min(left, invoice.outstanding);
    allocations.push({ invoiceId: invoice.id, amount: take });
    left -= take;
  }
  return { allocations, owed, excess: left };
}

/**
 * The one matching rule (decision 0067). By reference first: the batch's invoices take the payment oldest due
 * first — all of it owed → exacta; less → parcial (the rest stays outstanding); more → sobrepago (every invoice
 * settled, the excess kept as the buyer's saldo a favor). When the reference names no batch: the buyer whose RFC
 * ordered it and one of its invoices owing exactly the amount (oldest due first) → exacta. Otherwise no
 * identificada: an operator assigns it.
 */
export function matchPayment(amount: Centavos, candidates: PaymentCandidates): PaymentMatch {
  if (candidates.batch) {
    const { allocations, owed, excess } = allocateOldestFirst(amount, candidates.batch.invoices);
    const kind = amount === owed ? 'exacta' : amount < owed ? 'parcial' : 'sobrepago';
    return { kind, corporateId: candidates.batch.corporateId, allocations, excess };
  }
  if (candidates.buyer) {
    const exact = [...candidates.buyer.invoices]
      .sort(byDueThenId)
      .find((invoice) => invoice.outstanding === amount);
    if (exact)
      return {
        kind: 'exacta',
        corporateId: candidates.buyer.corporateId,
        allocations: [{ invoiceId: exact.id, amount }],
        excess: 0,
      };
  }
  return { kind: 'no_identificada' };
}

/** What the server knows about the file's batches and buyers (loaded in a few queries, not per line). */
export interface MatchingWorld {
  /** Maturity batch id → its buyer and due date. */
  batches: ReadonlyMap<number, { corporateId: number; dueOn: IsoDate }>;
  /** RFC → buyer (corporate) id. */
  buyersByRfc: ReadonlyMap<string, number>;
  /** Every open invoice of the buyers involved. */
  invoices: readonly OpenInvoice[];
}

export interface LineMatch {
  line: BankStatementLine;
  match: PaymentMatch;
}

/**
 * Matches a file's new lines in file order: each payment sees what earlier lines of the same file left
 * outstanding (two payments of one batch do not both settle it). Pure: the world is not changed.
 */
export function matchPayments(lines: readonly BankStatementLine[], world: MatchingWorld): LineMatch[] {
  const outstanding = new Map(world.invoices.map((invoice) => [invoice.id, invoice.outstanding]));
  const byBuyer = new Map<number, OpenInvoice[]>();
  for (const invoice of world.invoices) {
    const list = byBuyer.get(invoice.corporateId);
    if (list) list.push(invoice);
    else byBuyer.set(invoice.corporateId, [invoice]);
  }
  const open = (list: readonly OpenInvoice[]) =>
    list
      .map((invoice) => ({ ...invoice, outstanding: outstanding.get(invoice.id) ?? 0 }))
      .filter((invoice) => invoice.outstanding > 0);
  // NOTE: a buyer's open invoices by amount, so matching by RFC and amount is not a scan per line.
  const byBuyerAmount = new Map<string, OpenInvoice[]>();
  for (const invoice of [...world.invoices].sort(byDueThenId)) {
    const key = `${invoice.corporateId}:${invoice.outstanding}`;
    const list = byBuyerAmount.get(key);
    if (list) list.push(invoice);
    else byBuyerAmount.set(key, [invoice]);
  }
  return lines.map((line) => {
    const batchId = batchOfReference(line.referencia);
    const batch = batchId === null ? undefined : world.batches.get(batchId);
    const buyerId = line.rfcOrdenante === null ? undefined : world.buyersByRfc.get(line.rfcOrdenante);
    const candidates: PaymentCandidates = {
      batch: batch
        ? {
            corporateId: batch.corporateId,
            invoices: open(
              (byBuyer.get(batch.corporateId) ?? []).filter((invoice) => invoice.dueOn === batch.dueOn),
            ),
          }
        : null,
      buyer:
        buyerId === undefined
          ? null
          : {
              corporateId: buyerId,
              invoices: open(
                (byBuyerAmount.get(`${buyerId}:${line.amount}`) ?? []).filter(
                  (invoice) => outstanding.get(invoice.id) === line.amount,
                ),
              ),
            },
    };
    const match = matchPayment(line.amount, candidates);
    if (match.kind !== 'no_identificada')
      for (const allocation of match.allocations)
        outstanding.set(
          allocation.invoiceId,
          (outstanding.get(allocation.invoiceId) ?? 0) - allocation.amount,
        );
    return { line, match };
  });
}

/** What an operator reads for a line's result. */
export function paymentResultMessage(
  kind: PaymentKind,
  facts: { amount: Centavos; excess?: Centavos; invoices?: number },
): string {
  switch (kind) {
    case 'exacta':
      return `Aplicado completo a ${facts.invoices === 1 ? '1 factura' : `${facts.invoices ?? 0} facturas`}.`;
    case 'parcial':
      return `Pago parcial de ${formatMxn(facts.amount)}: aplicado a la factura con vencimiento más antiguo; el resto sigue por cobrar.`;
    case 'sobrepago':
      return `Facturas liquidadas; el excedente de ${formatMxn(facts.excess ?? 0)} queda como saldo a favor del corporativo.`;
    case 'no_identificada':
      return 'No identificado: queda en la cola para que un operador lo asigne.';
    case 'repetida':
      return 'Esta clave de rastreo ya se había aplicado: no cambia nada.';
  }
}

/**
 * NOTE: our configuration (decision 0067): an unidentified payment above this amount is assigned by two people
 * (one proposes, a different aprobador approves); up to it one operator assigns it.
 */
export const UNIDENTIFIED_APPROVAL_THRESHOLD: Centavos = 50_000_00;
