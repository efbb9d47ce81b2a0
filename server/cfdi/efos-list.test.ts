import { describe, expect, it } from 'vitest';
import {
  EFOS_CSV_HEADER,
  type EfosCsvRow,
  efosCsvRow,
  efosCsvText,
  encodeEfosCsv,
  makeEfosCsv,
  toWindows1252,
} from '../../test/fixtures/efos';
import {
  EFOS_BLOCKING_SITUATIONS,
  EFOS_LIMITS,
  EFOS_SITUATIONS,
  type EfosParseResult,
  isBlockingSituation,
  parseEfosList,
} from './efos-list';

// Invented RFCs of a valid shape; the first two carry Ñ and &, which SAT's RFCs may.
const ROWS: EfosCsvRow[] = [
  { rfc: 'ÑAB150312K21', name: 'ÑANDÚ COMERCIALIZADORA, S.A. DE C.V.', situation: 'Definitivo' },
  { rfc: 'M&C120405QW2', name: '“M&C CONSULTORES”, S.C.', situation: 'Presunto' },
  { rfc: 'PEÑA800101AB3', name: 'PEÑA GÓMEZ MARÍA JOSÉ', situation: 'Desvirtuado' },
  { rfc: 'SFA101010XY9', name: 'SERVICIOS "LA FE", S. DE R.L. DE C.V.', situation: 'Sentencia Favorable' },
];
const EXPECTED = ROWS.map(({ rfc, name, situation }) => ({ rfc, name, situation }));
// Preamble on lines 1–2, header on 3: the first row is line 4.
const FIRST_ROW_LINE = 4;

function ok(result: EfosParseResult) {
  if (!result.ok) throw new Error(`Refused: ${result.reason}`);
  return result;
}

/** The file of ROWS with one row replaced by a raw record, for the refusals. */
function withRecord(index: number, record: string): Uint8Array {
  const lines = efosCsvText(ROWS).split('\r\n');
  lines[FIRST_ROW_LINE - 1 + index] = record;
  return encodeEfosCsv(lines.join('\r\n'));
}

const row = (overrides: Partial<EfosCsvRow>, index = 0): string =>
  efosCsvRow({ ...ROWS[index]!, ...overrides }, index);

describe('parseEfosList: reading the file SAT publishes', () => {
  it('reads a UTF-8 file: Ñ and & RFCs, quoted names with commas and doubled quotes, the preamble', () => {
    const result = ok(parseEfosList(makeEfosCsv(ROWS)));
    expect(result.entries).toEqual(EXPECTED);
    expect(result.preamble).toEqual([
      expect.stringMatching(/^Información actualizada al 31 de octubre de 2026; los listados/),
      'Listado completo de contribuyentes (Artículo 69-B del CFF)',
    ]);
    expect(result.rowCount).toBe(4);
    expect(result.withheldRowCount).toBe(0);
  });

  it('reads a UTF-8 file with a byte-order mark and LF line ends alike', () => {
    const result = ok(parseEfosList(makeEfosCsv(ROWS, { bom: true, lineEnding: '\n' })));
    expect(result.entries).toEqual(EXPECTED);
  });

  it('reads a windows-1252 file (typographic quotes 0x93/0x94 included) to the same entries', () => {
    const bytes = makeEfosCsv(ROWS, { encoding: 'latin1' });
    expect(bytes).toContain(0xd1); // Ñ
    expect(bytes).toContain(0x93); // “
    expect(() => new TextDecoder('utf-8', { fatal: true }).decode(bytes)).toThrow();
    const result = ok(parseEfosList(bytes));
    expect(result.entries).toEqual(EXPECTED);
    expect(result.preamble[1]).toBe('Listado completo de contribuyentes (Artículo 69-B del CFF)');
  });

  it('decodes windows-1252 by the WHATWG table, 0x80–0x9F included (not as Latin-1 control characters)', () => {
    const text = efosCsvText([{ ...ROWS[0]!, name: 'NAME' }]);
    const [before, after] = text.split('NAME') as [string, string];
    const high = [0x80, 0x8a, 0x91, 0x92, 0x93, 0x94, 0x96, 0x9f];
    const bytes = new Uint8Array([...toWindows1252(before), 0xd1, ...high, ...toWindows1252(after)]);
    expect(ok(parseEfosList(bytes)).entries[0]!.name).toBe('Ñ€Š‘’“”–Ÿ');
  });

  it('normalises RFCs (upper case, NFC, no spaces) and accepts one that fails the check digit', () => {
    const result = ok(
      parseEfosList(
        makeEfosCsv([
          { rfc: ' ñab150312k21 ', name: 'A', situation: 'Definitivo' },
          { rfc: 'PEN\u0303A800101AB3', name: 'B', situation: 'Presunto' },
          // NOTE: a real SAT RFC whose check digit does not compute (domain research §2.3).
          { rfc: 'LME060822IH5', name: 'C', situation: 'Presunto' },
        ]),
      ),
    );
    expect(result.entries.map((entry) => entry.rfc)).toEqual([
      'ÑAB150312K21',
      'PEÑA800101AB3',
      'LME060822IH5',
    ]);
  });

  it('matches the situation whatever its case, accents and spaces', () => {
    const spellings = ['SENTENCIA FAVORABLE', 'Sentencia favorable', '  sentencia   Favorable ', 'PRESUNTO'];
    const rows = spellings.map((situation, i) => ({ rfc: `AAA0101${10 + i}AB1`, name: 'X', situation }));
    const result = ok(parseEfosList(makeEfosCsv(rows)));
    expect(result.entries.map((entry) => entry.situation)).toEqual([
      'Sentencia Favorable',
      'Sentencia Favorable',
      'Sentencia Favorable',
      'Presunto',
    ]);
  });

  it('accepts a header without accents, in other case, with "No."', () => {
    const header = EFOS_CSV_HEADER.map((column) =>
      column.normalize('NFD').replace(/\p{M}/gu, '').toUpperCase(),
    );
    header[0] = 'No.';
    expect(ok(parseEfosList(makeEfosCsv(ROWS, { header }))).entries).toEqual(EXPECTED);
  });

  it('skips records made only of commas and blank lines, before and after the header', () => {
    const padding = ','.repeat(EFOS_CSV_HEADER.length - 1);
    const text = `\r\n${efosCsvText(ROWS, { preamble: ['Aviso', ''] })}${padding}\r\n\r\n`;
    const result = ok(parseEfosList(encodeEfosCsv(text)));
    expect(result.entries).toEqual(EXPECTED);
    expect(result.preamble).toEqual(['Aviso']);
    expect(result.rowCount).toBe(4);
  });

  it('reads a name with a line break inside its quotes, and counts lines past it', () => {
    const rows = [{ ...ROWS[0]!, name: 'CONSTRUCTORA DE PROYECTOS, \r\nS.A. DE C.V.' }, ...ROWS.slice(1)];
    const result = ok(parseEfosList(makeEfosCsv(rows)));
    expect(result.entries[0]!.name).toBe('CONSTRUCTORA DE PROYECTOS, S.A. DE C.V.');
    // The second row starts on line 6 now: a bad situation there says so.
    const bad = efosCsvText(rows).replace(',Presunto,', ',Presumido,');
    expect(parseEfosList(encodeEfosCsv(bad))).toMatchObject({ ok: false, line: FIRST_ROW_LINE + 2 });
  });

  it('counts rows whose RFC SAT withheld (XXXXXXXXXXXX) and returns no entry for them', () => {
    const withheld = {
      rfc: 'XXXXXXXXXXXX',
      name: 'Información suprimida en cumplimiento a la declaratoria de nulidad.',
      situation: 'Presunto',
    };
    const result = ok(parseEfosList(makeEfosCsv([withheld, ...ROWS, withheld])));
    expect(result.entries).toEqual(EXPECTED);
    expect(result.rowCount).toBe(6);
    expect(result.withheldRowCount).toBe(2);
  });

  it('keeps one entry per RFC: of its rows (one per proceeding) the most severe decides', () => {
    const rfc = 'CAL140908936';
    const rows = (...situations: string[]) =>
      situations.map((situation, i) => ({ rfc, name: `PROCEDIMIENTO ${i + 1}`, situation }));
    const decide = (...situations: string[]) => ok(parseEfosList(makeEfosCsv(rows(...situations)))).entries;

    expect(decide('Sentencia Favorable', 'Definitivo')).toEqual([
      { rfc, name: 'PROCEDIMIENTO 2', situation: 'Definitivo' },
    ]);
    expect(decide('Definitivo', 'Desvirtuado')).toEqual([
      { rfc, name: 'PROCEDIMIENTO 1', situation: 'Definitivo' },
    ]);
    expect(decide('Presunto', 'Definitivo', 'Presunto')[0]!.situation).toBe('Definitivo');
    expect(decide('Desvirtuado', 'Presunto')[0]!.situation).toBe('Presunto');
    // Two clearing rows: the first stays.
    expect(decide('Desvirtuado', 'Sentencia Favorable')[0]).toMatchObject({ name: 'PROCEDIMIENTO 1' });
    // The RFC keeps the place of its first row.
    const mixed = ok(parseEfosList(makeEfosCsv([...rows('Desvirtuado'), ROWS[0]!, ...rows('Definitivo')])));
    expect(mixed.entries.map((entry) => [entry.rfc, entry.situation])).toEqual([
      [rfc, 'Definitivo'],
      ['ÑAB150312K21', 'Definitivo'],
    ]);
  });
});

describe('parseEfosList: refusals, each with its line', () => {
  const refusal = (bytes: Uint8Array) => {
    const result = parseEfosList(bytes);
    if (result.ok) throw new Error('Accepted');
    return result;
  };

  it('refuses an unknown situation with the wording users see', () => {
    expect(refusal(withRecord(2, row({ situation: 'Presumido' }, 2))).reason).toBe(
      'Línea 6: la situación "Presumido" no es una de Presunto, Desvirtuado, Definitivo o Sentencia Favorable.',
    );
    expect(refusal(withRecord(0, row({ situation: '' })))).toMatchObject({ line: FIRST_ROW_LINE });
  });

  it('refuses a malformed RFC (shape, not check digit) and a missing one', () => {
    expect(refusal(withRecord(1, row({ rfc: 'ABC12' }, 1)))).toEqual({
      ok: false,
      line: 5,
      reason: 'Línea 5: el RFC "ABC12" no tiene un formato válido.',
    });
    expect(refusal(withRecord(0, row({ rfc: 'AAA011301AB1' }))).line).toBe(FIRST_ROW_LINE); // month 13
    expect(refusal(withRecord(3, row({ rfc: '' }, 3)))).toEqual({
      ok: false,
      line: 7,
      reason: 'Línea 7: falta el RFC.',
    });
    // A header repeated below (two files pasted together) is a row with the RFC "RFC".
    expect(refusal(withRecord(3, EFOS_CSV_HEADER.join(',')))).toMatchObject({ line: 7 });
  });

  it('refuses a file with no header, and a header below the preamble limit', () => {
    expect(refusal(encodeEfosCsv('RFC,Nombre\r\nAAA010101AB1,X\r\n'))).toEqual({
      ok: false,
      line: 0,
      reason: 'El archivo no tiene el encabezado del listado 69-B (No, RFC, Nombre del Contribuyente, …).',
    });
    const preamble = Array.from({ length: EFOS_LIMITS.maxPreambleLines }, (_, i) => `Aviso ${i + 1}`);
    expect(ok(parseEfosList(makeEfosCsv(ROWS, { preamble }))).preamble).toHaveLength(10);
    const tooLong = refusal(makeEfosCsv(ROWS, { preamble: [...preamble, 'Aviso 11'] }));
    expect(tooLong.line).toBe(EFOS_LIMITS.maxPreambleLines + 1);
    expect(tooLong.reason).toMatch(/^Línea 11: el encabezado del listado 69-B .* hasta 10\.$/);
  });

  it('refuses a header with another column, a missing one or an extra one', () => {
    const renamed = [...EFOS_CSV_HEADER];
    renamed[3] = 'Estatus';
    expect(refusal(makeEfosCsv(ROWS, { header: renamed }))).toEqual({
      ok: false,
      line: 3,
      reason: 'Línea 3: la columna 4 del encabezado es "Estatus"; debería ser "Situación del contribuyente".',
    });
    expect(refusal(makeEfosCsv(ROWS, { header: EFOS_CSV_HEADER.slice(0, 4) })).reason).toBe(
      'Línea 3: el encabezado tiene 4 columnas; el listado 69-B tiene 20.',
    );
    expect(refusal(makeEfosCsv(ROWS, { header: [...EFOS_CSV_HEADER, 'Entidad'] })).reason).toBe(
      'Línea 3: el encabezado tiene una columna que el listado 69-B no tiene: "Entidad".',
    );
    // Trailing empty columns, as SAT's sibling files have, are fine.
    expect(
      ok(parseEfosList(makeEfosCsv(ROWS, { header: [...EFOS_CSV_HEADER, '', ''] }))).entries,
    ).toHaveLength(4);
  });

  it('refuses a row cut short (a truncated download) and one with a name whose commas are not quoted', () => {
    expect(refusal(withRecord(1, '2,M&C120405QW2,M&C,Presunto'))).toEqual({
      ok: false,
      line: 5,
      reason: 'Línea 5: la fila tiene 4 columnas; el listado 69-B tiene 20.',
    });
    const unquoted = row({}, 0).replace(
      '"ÑANDÚ COMERCIALIZADORA, S.A. DE C.V."',
      'ÑANDÚ COMERCIALIZADORA, S.A. DE C.V.',
    );
    expect(refusal(withRecord(0, unquoted))).toMatchObject({ line: FIRST_ROW_LINE });
  });

  it('refuses an unterminated quote at the line it opens, and text after a closing quote', () => {
    const text = efosCsvText(ROWS).replace('"SERVICIOS ""LA FE"", S. DE R.L. DE C.V."', '"SERVICIOS LA FE');
    expect(refusal(encodeEfosCsv(text))).toEqual({
      ok: false,
      line: 7,
      reason: 'Línea 7: unas comillas se abren y no se cierran antes del final del archivo.',
    });
    const after = row({}, 1).replace('"“M&C CONSULTORES”, S.C."', '"M&C" CONSULTORES');
    expect(refusal(withRecord(1, after))).toMatchObject({
      line: 5,
      reason: expect.stringMatching(/^Línea 5: hay texto/),
    });
  });

  it('refuses an empty file, a list with no taxpayer, and one with only withheld rows', () => {
    expect(refusal(new Uint8Array(0))).toEqual({ ok: false, line: 0, reason: 'El archivo está vacío.' });
    expect(refusal(encodeEfosCsv(' \r\n\r\n'))).toMatchObject({ line: 0 });
    expect(refusal(makeEfosCsv([]))).toEqual({
      ok: false,
      line: 3,
      reason: 'Línea 3: después del encabezado no hay ningún contribuyente con RFC.',
    });
    expect(
      refusal(makeEfosCsv([{ rfc: 'XXXXXXXXXXXX', name: 'Suprimido', situation: 'Definitivo' }])).line,
    ).toBe(3);
  });
});

describe('parseEfosList: limits', () => {
  it('refuses a file over the byte limit before decoding it', () => {
    expect(EFOS_LIMITS.maxBytes).toBe(30 * 1024 * 1024);
    expect(parseEfosList(new Uint8Array(EFOS_LIMITS.maxBytes + 1))).toEqual({
      ok: false,
      line: 0,
      reason: 'El archivo pesa más de 30 MB; el listado 69-B del SAT pesa unos 5 MB.',
    });
  });

  it(`refuses more than ${EFOS_LIMITS.maxRows} records after the header, and reads exactly that many`, () => {
    const head = efosCsvText([]);
    const line = `${row({})}\r\n`;
    const exactly = ok(parseEfosList(encodeEfosCsv(head + line.repeat(EFOS_LIMITS.maxRows))));
    expect(exactly.rowCount).toBe(EFOS_LIMITS.maxRows);
    expect(exactly.entries).toHaveLength(1);
    const over = parseEfosList(encodeEfosCsv(head + line.repeat(EFOS_LIMITS.maxRows + 1)));
    expect(over).toEqual({
      ok: false,
      line: 3 + EFOS_LIMITS.maxRows + 1,
      reason: 'Línea 100004: el listado tiene más de 100,000 filas.',
    });
  });

  it('refuses a field over the length limit, quoted or not, and a record of too many cells', () => {
    const long = 'A'.repeat(EFOS_LIMITS.maxFieldChars + 1);
    expect(parseEfosList(withRecord(1, row({ name: long }, 1)))).toMatchObject({
      ok: false,
      line: 5,
      reason: 'Línea 5: un campo tiene más de 4,000 caracteres.',
    });
    expect(parseEfosList(withRecord(1, row({ name: `${long}, S.C.` }, 1)))).toMatchObject({
      ok: false,
      line: 5,
    });
    expect(parseEfosList(withRecord(2, ','.repeat(1_000_000)))).toEqual({
      ok: false,
      line: 6,
      reason: 'Línea 6: la fila tiene más de 64 columnas.',
    });
    // A name at the limit is read.
    const atLimit = 'B'.repeat(EFOS_LIMITS.maxFieldChars);
    expect(ok(parseEfosList(withRecord(1, row({ name: atLimit }, 1)))).entries[1]!.name).toBe(atLimit);
  });
});

describe('the blocking rule', () => {
  it('blocks Presunto and Definitivo; Desvirtuado and Sentencia Favorable pass', () => {
    expect(EFOS_BLOCKING_SITUATIONS).toEqual(['Presunto', 'Definitivo']);
    expect(EFOS_SITUATIONS.map((situation) => [situation, isBlockingSituation(situation)])).toEqual([
      ['Presunto', true],
      ['Desvirtuado', false],
      ['Definitivo', true],
      ['Sentencia Favorable', false],
    ]);
  });
});
