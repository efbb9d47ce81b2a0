import {
  EFOS_BLOCKING_SITUATIONS,
  EFOS_SITUATIONS,
  type EfosSituation,
  isBlockingSituation,
} from '../../src/domain/efos';
import { RFC_PATTERN } from '../../src/domain/rfc';

// SAT's "Listado completo 69-B" (Listado_Completo_69-B.csv): the taxpayers presumed to invoice non-existent
// operations (EFOS) and where each stands. Pure: bytes in, entries or one Spanish refusal with its line out.
//
// NOTE: layout as SAT publishes it (checked against public parsers and byte-for-byte samples of the real file,
// 2025-12 and 2026-05 editions; decision 0057): windows-1252 bytes (typographic quotes 0x93/0x94 inside names),
// CRLF, two preamble records (a quoted legend "Información actualizada al …" and the title "Listado completo de
// contribuyentes (Artículo 69-B del CFF)", both padded with commas), the 20-column header below, ~14,500 rows
// (~4.7 MB). Names are quoted when they hold commas and may hold a line break; some records are only commas;
// 91+ rows carry the RFC XXXXXXXXXXXX (withheld by court order); and one RFC may fill several rows, one per
// proceeding (CAL140908936 twice as Definitivo under two oficios).

// The situations and which of them block are the domain's (src/domain/efos.ts): the desk reads them too.
export { EFOS_BLOCKING_SITUATIONS, EFOS_SITUATIONS, type EfosSituation, isBlockingSituation };

/** One taxpayer of the list: its RFC (upper case, NFC) once, with the situation that decides for it. */
export interface EfosEntry {
  rfc: string;
  name: string;
  situation: EfosSituation;
}

export type EfosParseResult =
  | {
      ok: true;
      /** One per RFC, in the order the RFCs first appear. */
      entries: EfosEntry[];
      /** The text of each non-blank record above the header (SAT's legend with its date, and the title). */
      preamble: string[];
      /** Data rows read (blank records not counted), withheld ones included. */
      rowCount: number;
      /** Rows whose RFC SAT withheld (XXXXXXXXXXXX): nobody can be matched against them. */
      withheldRowCount: number;
    }
  | {
      ok: false;
      /** 1-based line of the file where the problem starts; 0 when it is the file as a whole. */
      line: number;
      reason: string;
    };

/** Why each limit is what it is: SAT's real file is ~4.7 MB, ~14,500 rows, 20 columns, a legend of ~830 chars. */
export const EFOS_LIMITS = {
  /** Six times the real file: room for years of growth, while a hostile upload stays cheap to refuse. */
  maxBytes: 30 * 1024 * 1024,
  /** Records after the header (blank ones included), about seven times today's list. */
  maxRows: 100_000,
  /** A cell: the legend is ~830 characters, the longest names (with a court's note) ~250. */
  maxFieldChars: 4_000,
  /** A record: the list has 20 columns; SAT's sibling files pad to 23. Stops a line of a million commas. */
  maxCellsPerRecord: 64,
  /** Records above the header: SAT puts two there. */
  maxPreambleLines: 10,
} as const;

/** NOTE: the header of the real file, in this order (Presuntos.csv spells the first one "No."). */
const COLUMNS = [
  'No',
  'RFC',
  'Nombre del Contribuyente',
  'Situación del contribuyente',
  'Número y fecha de oficio global de presunción SAT',
  'Publicación página SAT presuntos',
  'Número y fecha de oficio global de presunción DOF',
  'Publicación DOF presuntos',
  'Número y fecha de oficio global de contribuyentes que desvirtuaron SAT',
  'Publicación página SAT desvirtuados',
  'Número y fecha de oficio global de contribuyentes que desvirtuaron DOF',
  'Publicación DOF desvirtuados',
  'Número y fecha de oficio global de definitivos SAT',
  'Publicación página SAT definitivos',
  'Número y fecha de oficio global de definitivos DOF',
  'Publicación DOF definitivos',
  'Número y fecha de oficio global de sentencia favorable SAT',
  'Publicación página SAT sentencia favorable',
  'Número y fecha de oficio global de sentencia favorable DOF',
  'Publicación DOF sentencia favorable',
] as const;
const RFC_COLUMN = 1;
const NAME_COLUMN = 2;
const SITUATION_COLUMN = 3;

/** NOTE: SAT replaces the RFC of a row it must not publish (a court's nullity ruling, data protection) by X's. */
const WITHHELD_RFC = /^X{12,13}$/;

/**
 * When one RFC fills several rows (one per proceeding), the row that decides is the most severe: a blocking
 * proceeding is not cleared by another one having been won, and Definitivo outweighs Presunto. Ties keep the
 * first row.
 */
const SEVERITY: Record<EfosSituation, number> = {
  Definitivo: 3,
  Presunto: 2,
  'Sentencia Favorable': 1,
  Desvirtuado: 1,
};

const MAX_QUOTED_VALUE = 60;
const MEGABYTE = 1024 * 1024;
const SITUATION_LIST = 'Presunto, Desvirtuado, Definitivo o Sentencia Favorable';

const quoted = (value: string): string => {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters never reach a message.
  const clean = value.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');
  return `"${clean.length > MAX_QUOTED_VALUE ? `${clean.slice(0, MAX_QUOTED_VALUE)}…` : clean}"`;
};

export const EFOS_REASONS = {
  empty: 'El archivo está vacío.',
  tooLarge: `El archivo pesa más de ${EFOS_LIMITS.maxBytes / MEGABYTE} MB; el listado 69-B del SAT pesa unos 5 MB.`,
  noHeader: 'El archivo no tiene el encabezado del listado 69-B (No, RFC, Nombre del Contribuyente, …).',
  headerTooLate: (line: number) =>
    `Línea ${line}: el encabezado del listado 69-B (No, RFC, Nombre del Contribuyente, …) debería estar antes; ` +
    `el SAT pone dos líneas de presentación y se admiten hasta ${EFOS_LIMITS.maxPreambleLines}.`,
  headerTooShort: (line: number, count: number) =>
    `Línea ${line}: el encabezado tiene ${count} columnas; el listado 69-B tiene ${COLUMNS.length}.`,
  headerColumn: (line: number, index: number, found: string, expected: string) =>
    `Línea ${line}: la columna ${index + 1} del encabezado es ${quoted(found)}; debería ser "${expected}".`,
  headerExtra: (line: number, found: string) =>
    `Línea ${line}: el encabezado tiene una columna que el listado 69-B no tiene: ${quoted(found)}.`,
  rowTooShort: (line: number, count: number) =>
    `Línea ${line}: la fila tiene ${count} columnas; el listado 69-B tiene ${COLUMNS.length}.`,
  rowTooLong: (line: number) =>
    `Línea ${line}: la fila tiene más columnas con datos que el encabezado; un nombre con comas va entre comillas.`,
  rfcMissing: (line: number) => `Línea ${line}: falta el RFC.`,
  rfcFormat: (line: number, rfc: string) =>
    `Línea ${line}: el RFC ${quoted(rfc)} no tiene un formato válido.`,
  situation: (line: number, found: string) =>
    `Línea ${line}: la situación ${quoted(found)} no es una de ${SITUATION_LIST}.`,
  noEntries: (line: number) => `Línea ${line}: después del encabezado no hay ningún contribuyente con RFC.`,
  unterminatedQuote: (line: number) =>
    `Línea ${line}: unas comillas se abren y no se cierran antes del final del archivo.`,
  textAfterQuote: (line: number) =>
    `Línea ${line}: hay texto después de cerrar unas comillas; dentro de un campo, las comillas se escriben dobles ("").`,
  fieldTooLong: (line: number) =>
    `Línea ${line}: un campo tiene más de ${EFOS_LIMITS.maxFieldChars.toLocaleString('en-US')} caracteres.`,
  tooManyCells: (line: number) =>
    `Línea ${line}: la fila tiene más de ${EFOS_LIMITS.maxCellsPerRecord} columnas.`,
  tooManyRows: (line: number) =>
    `Línea ${line}: el listado tiene más de ${EFOS_LIMITS.maxRows.toLocaleString('en-US')} filas.`,
} as const;

class Refusal extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(reason);
  }
}

interface CsvRecord {
  /** Line the record starts on. */
  line: number;
  cells: string[];
}

/** Line breaks in text[from, to): CRLF, LF and a lone CR each count once. */
function countLineBreaks(text: string, from: number, to: number): number {
  let count = 0;
  for (let i = from; i < to; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x0a || (c === 0x0d && text.charCodeAt(i + 1) !== 0x0a)) count++;
  }
  return count;
}

/**
 * RFC 4180 records, one at a time, with the limits applied as it reads. A quote inside an unquoted field is
 * taken as text (the field's end is still unambiguous); text after a closing quote is refused (it is not).
 */
class CsvReader {
  private position = 0;
  private line = 1;

  constructor(private readonly text: string) {}

  next(): CsvRecord | null {
    const { text } = this;
    if (this.position >= text.length) return null;
    const record: CsvRecord = { line: this.line, cells: [] };
    let i = this.position;
    for (;;) {
      let value: string;
      if (text.charCodeAt(i) === 0x22) {
        const openedOn = this.line;
        value = '';
        let start = i + 1;
        for (;;) {
          const close = text.indexOf('"', start);
          if (close === -1) throw new Refusal(openedOn, EFOS_REASONS.unterminatedQuote(openedOn));
          this.line += countLineBreaks(text, start, close);
          if (text.charCodeAt(close + 1) === 0x22) {
            value += text.slice(start, close + 1);
            start = close + 2;
          } else {
            value += text.slice(start, close);
            i = close + 1;
            break;
          }
          if (value.length > EFOS_LIMITS.maxFieldChars) {
            throw new Refusal(record.line, EFOS_REASONS.fieldTooLong(record.line));
          }
        }
        const after = text.charCodeAt(i);
        if (i < text.length && after !== 0x2c && after !== 0x0d && after !== 0x0a) {
          throw new Refusal(this.line, EFOS_REASONS.textAfterQuote(this.line));
        }
      } else {
        let end = i;
        // Stops one past the limit: enough to refuse a 30 MB line without walking it.
        const stop = Math.min(text.length, i + EFOS_LIMITS.maxFieldChars + 1);
        while (end < stop) {
          const c = text.charCodeAt(end);
          if (c === 0x2c || c === 0x0d || c === 0x0a) break;
          end++;
        }
        value = text.slice(i, end);
        i = end;
      }
      if (value.length > EFOS_LIMITS.maxFieldChars) {
        throw new Refusal(record.line, EFOS_REASONS.fieldTooLong(record.line));
      }
      record.cells.push(value);
      if (record.cells.length > EFOS_LIMITS.maxCellsPerRecord) {
        throw new Refusal(record.line, EFOS_REASONS.tooManyCells(record.line));
      }
      if (i >= text.length) {
        this.position = i;
        return record;
      }
      const c = text.charCodeAt(i);
      if (c === 0x2c) {
        i++;
        continue;
      }
      i += c === 0x0d && text.charCodeAt(i + 1) === 0x0a ? 2 : 1;
      this.line++;
      this.position = i;
      return record;
    }
  }
}

/**
 * NOTE: WHATWG's index-windows-1252 for 0x80–0x9F (every other byte is its own code point). Written out because
 * Node's TextDecoder('windows-1252') decodes these bytes as Latin-1 C1 controls since 20.18.3 (nodejs/node#60888),
 * and SAT's names carry “ ” (0x93, 0x94) in this range.
 */
const WINDOWS_1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];
const WINDOWS_1252 = Uint16Array.from({ length: 256 }, (_, byte) =>
  byte >= 0x80 && byte <= 0x9f ? WINDOWS_1252_HIGH[byte - 0x80]! : byte,
);

function decodeWindows1252(bytes: Uint8Array): string {
  // One table lookup per byte into UTF-16LE (written byte by byte, so the host's byte order does not matter):
  // linear whatever a hostile file holds.
  const utf16 = Buffer.alloc(bytes.length * 2);
  for (let i = 0; i < bytes.length; i++) {
    const unit = WINDOWS_1252[bytes[i]!]!;
    utf16[2 * i] = unit & 0xff;
    utf16[2 * i + 1] = unit >> 8;
  }
  return utf16.toString('utf16le');
}

/** Valid UTF-8 (its BOM dropped), else windows-1252: SAT has published both, older files in windows-1252. */
function decode(bytes: Uint8Array): string {
  try {
    // A BOM is consumed by the decoder (ignoreBOM is false by default).
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return decodeWindows1252(bytes);
  }
}

/** Case, accents, repeated spaces and a trailing period ("No.") do not matter in a header or a situation. */
function fold(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/\.$/, '');
}

/** A cell as text for people: NFC, no control characters, whitespace (line breaks too) collapsed. */
function tidy(value: string): string {
  return (
    value
      .normalize('NFC')
      // biome-ignore lint/suspicious/noControlCharactersInRegex: stray C0/C1 bytes of the source become spaces.
      .replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ')
      .replace(/\s+/g, ' ')
      .trim()
  );
}

const FOLDED_COLUMNS = COLUMNS.map(fold);
const SITUATIONS_BY_FOLD = new Map(EFOS_SITUATIONS.map((situation) => [fold(situation), situation]));

const isBlank = (cells: readonly string[]): boolean => cells.every((cell) => cell.trim() === '');

function isHeader(cells: readonly string[]): boolean {
  return fold(cells[0] ?? '') === FOLDED_COLUMNS[0] && fold(cells[RFC_COLUMN] ?? '') === FOLDED_COLUMNS[1];
}

function checkHeader({ line, cells }: CsvRecord): void {
  if (cells.length < COLUMNS.length) throw new Refusal(line, EFOS_REASONS.headerTooShort(line, cells.length));
  COLUMNS.forEach((expected, index) => {
    const found = cells[index]!;
    if (fold(found) !== FOLDED_COLUMNS[index]) {
      throw new Refusal(line, EFOS_REASONS.headerColumn(line, index, found.trim(), expected));
    }
  });
  const extra = cells.slice(COLUMNS.length).find((cell) => cell.trim() !== '');
  if (extra !== undefined) throw new Refusal(line, EFOS_REASONS.headerExtra(line, extra.trim()));
}

function checkRowWidth({ line, cells }: CsvRecord): void {
  if (cells.length < COLUMNS.length) throw new Refusal(line, EFOS_REASONS.rowTooShort(line, cells.length));
  if (cells.slice(COLUMNS.length).some((cell) => cell.trim() !== '')) {
    throw new Refusal(line, EFOS_REASONS.rowTooLong(line));
  }
}

/** The RFC of a row, or null when SAT withheld it. */
function readRfc(record: CsvRecord): string | null {
  // An RFC has no spaces, so removing them (NBSP included) loses nothing.
  const rfc = record.cells[RFC_COLUMN]!.normalize('NFC').replace(/\s+/g, '').toUpperCase();
  if (rfc === '') throw new Refusal(record.line, EFOS_REASONS.rfcMissing(record.line));
  if (WITHHELD_RFC.test(rfc)) return null;
  // Shape only: SAT lists real RFCs that fail the check-digit formula.
  if (!RFC_PATTERN.test(rfc)) throw new Refusal(record.line, EFOS_REASONS.rfcFormat(record.line, rfc));
  return rfc;
}

function readSituation(record: CsvRecord): EfosSituation {
  const found = record.cells[SITUATION_COLUMN]!;
  const situation = SITUATIONS_BY_FOLD.get(fold(found));
  if (!situation) throw new Refusal(record.line, EFOS_REASONS.situation(record.line, tidy(found)));
  return situation;
}

/** The records above the header (their text, blank ones dropped) and the header, found by its first two cells. */
function readUpToHeader(reader: CsvReader): { header: CsvRecord; preamble: string[] } {
  const preamble: string[] = [];
  for (let seen = 0; ; seen++) {
    const record = reader.next();
    if (record === null) throw new Refusal(0, EFOS_REASONS.noHeader);
    if (isHeader(record.cells)) return { header: record, preamble };
    if (seen >= EFOS_LIMITS.maxPreambleLines) {
      throw new Refusal(record.line, EFOS_REASONS.headerTooLate(record.line));
    }
    if (!isBlank(record.cells)) preamble.push(tidy(record.cells.filter((cell) => cell.trim()).join(' ')));
  }
}

function parse(bytes: Uint8Array): EfosParseResult {
  if (bytes.byteLength > EFOS_LIMITS.maxBytes) return { ok: false, line: 0, reason: EFOS_REASONS.tooLarge };
  const text = decode(bytes);
  if (text.trim() === '') return { ok: false, line: 0, reason: EFOS_REASONS.empty };

  const reader = new CsvReader(text);
  const { header, preamble } = readUpToHeader(reader);
  checkHeader(header);

  const byRfc = new Map<string, EfosEntry>();
  let records = 0;
  let rowCount = 0;
  let withheldRowCount = 0;
  for (let record = reader.next(); record !== null; record = reader.next()) {
    records++;
    if (records > EFOS_LIMITS.maxRows) throw new Refusal(record.line, EFOS_REASONS.tooManyRows(record.line));
    if (isBlank(record.cells)) continue;
    rowCount++;
    checkRowWidth(record);
    const rfc = readRfc(record);
    const situation = readSituation(record);
    if (rfc === null) {
      withheldRowCount++;
      continue;
    }
    const previous = byRfc.get(rfc);
    if (previous && SEVERITY[previous.situation] >= SEVERITY[situation]) continue;
    // Setting a known key keeps its place: the RFC stays where it first appeared.
    byRfc.set(rfc, { rfc, name: tidy(record.cells[NAME_COLUMN]!), situation });
  }
  if (byRfc.size === 0) throw new Refusal(header.line, EFOS_REASONS.noEntries(header.line));
  return { ok: true, entries: [...byRfc.values()], preamble, rowCount, withheldRowCount };
}

/**
 * Reads SAT's "Listado completo 69-B" CSV, never throwing for a bad file: one entry per RFC, or the first
 * problem with its line and a Spanish reason. Refuses a file over a limit, without the header (No, RFC, … within the first
 * lines) or with other columns, a row with a malformed or missing RFC, an unknown situation, the wrong number
 * of cells, an unclosed quote, or no taxpayer at all. Withheld rows (XXXXXXXXXXXX) are counted, not returned;
 * an RFC on several rows keeps its most severe situation (see SEVERITY).
 */
export function parseEfosList(bytes: Uint8Array): EfosParseResult {
  try {
    return parse(bytes);
  } catch (error) {
    if (error instanceof Refusal) return { ok: false, line: error.line, reason: error.reason };
    throw error;
  }
}
