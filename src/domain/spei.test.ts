import { describe, expect, it } from 'vitest';
import {
  counterpartyInstitution,
  layoutCsv,
  numericReference,
  parseResultFile,
  RESULT_COLUMN_MEANINGS,
  RESULT_COLUMNS,
  RESULT_FILE_SAMPLE,
  resultFileCsv,
  speiConcept,
  speiText,
  trackingKey,
} from './spei';

describe('SPEI orders', () => {
  it('generates claves de rastreo of letters and digits within 30, and 1-7 digit references', () => {
    expect(trackingKey(12, 345)).toBe('FLUJO12F345');
    expect(trackingKey(2_147_483_647, 2_147_483_647)).toMatch(/^[A-Z0-9]{1,30}$/);
    expect(numericReference(1)).toBe(2);
    expect(String(numericReference(2_147_483_647))).toMatch(/^\d{1,7}$/);
  });

  it('writes names and conceptos as bank portals take them: upper case, no accents, 39 at most', () => {
    expect(speiText('Papelería Núñez & Hijos, S.A. de C.V.', 39)).toBe('PAPELERIA NUNEZ HIJOS, S.A. DE C.V.');
    expect(speiConcept('A-1234567890123456789012345678901')).toHaveLength(39);
  });

  it('derives the institución contraparte from the CLABE', () => {
    expect(counterpartyInstitution('012180001234567891')).toBe('40012');
    expect(counterpartyInstitution('646180001234567891')).toBe('90646');
  });

  it('writes the layout with its header and one CRLF line per order, quoting what needs it', () => {
    const csv = layoutCsv([
      {
        clave_rastreo: 'FLUJO1F7',
        referencia_numerica: 8,
        beneficiary_name: 'PROVEEDOR, S.A.',
        beneficiary_clabe: '002010077777777771',
        beneficiary_rfc: 'AAA010101AAA',
        amount: '9850.00',
        concepto: 'ADELANTO FACTURA A-7',
      },
    ]);
    expect(csv).toBe(
      'clave_rastreo,referencia_numerica,institucion_contraparte,tipo_cuenta_beneficiario,cuenta_beneficiario,' +
        'nombre_beneficiario,rfc_curp_beneficiario,monto,concepto_pago\r\n' +
        'FLUJO1F7,8,40002,40,002010077777777771,"PROVEEDOR, S.A.",AAA010101AAA,9850.00,ADELANTO FACTURA A-7\r\n',
    );
  });
});

describe('the bank result file', () => {
  it('reads liquidada and devuelta lines, skipping blank lines', () => {
    expect(
      parseResultFile(
        'clave_rastreo,estado,motivo\r\nFLUJO1F7,liquidada,\r\n\r\nFLUJO1F8,DEVUELTA,"Cuenta, inexistente"\n',
      ),
    ).toEqual({
      ok: true,
      lines: [
        { line: 2, trackingKey: 'FLUJO1F7', estado: 'liquidada', motivo: null },
        { line: 4, trackingKey: 'FLUJO1F8', estado: 'devuelta', motivo: 'Cuenta, inexistente' },
      ],
    });
  });

  it('reports every bad line in Spanish, numbered as in the file', () => {
    expect(
      parseResultFile(
        'clave_rastreo,estado,motivo\nFLUJO1F7,pagada,\nFLUJO 1,liquidada,\nFLUJO1F8,devuelta,\nFLUJO1F9,liquidada\nFLUJO1F9,liquidada,',
      ),
    ).toEqual({
      ok: false,
      errors: [
        'Línea 2: el estado debe ser liquidada o devuelta.',
        'Línea 3: la clave de rastreo no es válida.',
        'Línea 4: una orden devuelta necesita su motivo.',
        'Línea 6: la clave FLUJO1F9 ya aparece en la línea 5.',
      ],
    });
    expect(parseResultFile('clave,estado\nX,liquidada')).toEqual({
      ok: false,
      errors: ['Línea 1: el encabezado debe ser «clave_rastreo,estado,motivo».'],
    });
    expect(parseResultFile('clave_rastreo,estado,motivo\n')).toEqual({
      ok: false,
      errors: ['El archivo no tiene ninguna línea de resultado.'],
    });
  });
});

describe('the sample result file', () => {
  it('is written in the format the parser reads, one line per example, every column explained', () => {
    const csv = resultFileCsv(RESULT_FILE_SAMPLE);
    expect(csv.split('\r\n')[0]).toBe('clave_rastreo,estado,motivo');
    const parsed = parseResultFile(csv);
    expect(parsed).toEqual({
      ok: true,
      lines: RESULT_FILE_SAMPLE.map((line, index) => ({ line: index + 2, ...line })),
    });
    expect(Object.keys(RESULT_COLUMN_MEANINGS)).toEqual([...RESULT_COLUMNS]);
  });

  it('quotes a reason with a comma', () => {
    const csv = resultFileCsv([{ trackingKey: 'FLUJO1F2', estado: 'devuelta', motivo: 'Cuenta, cancelada' }]);
    expect(csv).toContain('FLUJO1F2,devuelta,"Cuenta, cancelada"');
    expect(parseResultFile(csv)).toMatchObject({ ok: true, lines: [{ motivo: 'Cuenta, cancelada' }] });
  });
});
