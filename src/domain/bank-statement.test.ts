import { describe, expect, it } from 'vitest';
import {
  BANK_STATEMENT_COLUMN_MEANINGS,
  BANK_STATEMENT_COLUMNS,
  BANK_STATEMENT_MESSAGES,
  BANK_STATEMENT_SAMPLE,
  bankStatementCsv,
  matchPayment,
  matchPayments,
  type OpenInvoice,
  parseBankStatement,
} from './bank-statement';
import { collectionReference } from './maturities';

const TODAY = '2026-11-20';
const HEADER = BANK_STATEMENT_COLUMNS.join(',');
const invoice = (id: number, dueOn: string, outstanding: number, corporateId = 7): OpenInvoice => ({
  id,
  corporateId,
  dueOn,
  outstanding,
});

describe('parseBankStatement', () => {
  it('reads back the sample it writes, and documents every column', () => {
    const parsed = parseBankStatement(bankStatementCsv(BANK_STATEMENT_SAMPLE), TODAY);
    expect(parsed).toEqual({
      ok: true,
      lines: BANK_STATEMENT_SAMPLE.map((line, index) => ({ ...line, line: index + 2 })),
    });
    expect(Object.keys(BANK_STATEMENT_COLUMN_MEANINGS)).toEqual([...BANK_STATEMENT_COLUMNS]);
  });

  it('refuses a wrong header, and reports every bad line with its number', () => {
    expect(parseBankStatement('fecha,monto\r\n', TODAY)).toEqual({
      ok: false,
      errors: [BANK_STATEMENT_MESSAGES.header],
    });
    const text = [
      HEADER,
      '2026-11-31,ABC 1,10.001,NOESRFC,,,',
      '',
      '2026-11-21,OK1,5.00,,,,',
      '2026-11-19,OK2,5.00,,,,',
      '2026-11-19,OK2,6.00,,,,',
      '2026-11-19,OK3,5.00',
    ].join('\n');
    expect(parseBankStatement(text, TODAY)).toEqual({
      ok: false,
      errors: [
        `Línea 2: ${BANK_STATEMENT_MESSAGES.fecha}; ${BANK_STATEMENT_MESSAGES.clave}; ${BANK_STATEMENT_MESSAGES.monto}; ${BANK_STATEMENT_MESSAGES.rfc}.`,
        `Línea 4: ${BANK_STATEMENT_MESSAGES.fechaAfterToday(TODAY)}.`,
        `Línea 6: ${BANK_STATEMENT_MESSAGES.repeatedInFile('OK2', 5)}.`,
        BANK_STATEMENT_MESSAGES.columns(7),
      ],
    });
    expect(parseBankStatement(`${HEADER}\r\n\r\n`, TODAY)).toEqual({
      ok: false,
      errors: [BANK_STATEMENT_MESSAGES.empty],
    });
  });
});

describe('matchPayment', () => {
  const batch = { corporateId: 7, invoices: [invoice(2, '2026-11-17', 600), invoice(1, '2026-11-17', 400)] };

  it('settles the batch exactly, partially (oldest first) or with an excess as saldo a favor', () => {
    expect(matchPayment(1_000, { batch, buyer: null })).toEqual({
      kind: 'exacta',
      corporateId: 7,
      allocations: [
        { invoiceId: 1, amount: 400 },
        { invoiceId: 2, amount: 600 },
      ],
      excess: 0,
    });
    expect(matchPayment(300, { batch, buyer: null })).toMatchObject({
      kind: 'parcial',
      allocations: [{ invoiceId: 1, amount: 300 }],
      excess: 0,
    });
    expect(matchPayment(1_250, { batch, buyer: null })).toMatchObject({ kind: 'sobrepago', excess: 250 });
  });

  it('by RFC only on an invoice owing exactly the amount, oldest due first; otherwise unidentified', () => {
    const buyer = {
      corporateId: 7,
      invoices: [invoice(5, '2026-12-01', 500), invoice(4, '2026-11-30', 500)],
    };
    expect(matchPayment(500, { batch: null, buyer })).toMatchObject({
      kind: 'exacta',
      allocations: [{ invoiceId: 4, amount: 500 }],
    });
    expect(matchPayment(499, { batch: null, buyer })).toEqual({ kind: 'no_identificada' });
    expect(matchPayment(500, { batch: null, buyer: null })).toEqual({ kind: 'no_identificada' });
  });
});

describe('matchPayments', () => {
  it('lets each line see what the earlier lines of the file left outstanding', () => {
    const reference = collectionReference(3);
    const line = (
      n: number,
      amount: number,
      overrides: { referencia?: string; rfcOrdenante?: string } = {},
    ) => ({
      line: n,
      fecha: TODAY,
      claveRastreo: `K${n}`,
      amount,
      rfcOrdenante: overrides.rfcOrdenante ?? null,
      nombreOrdenante: '',
      referencia: overrides.referencia ?? '',
      concepto: '',
    });
    const world = {
      batches: new Map([[3, { corporateId: 7, dueOn: '2026-11-17' }]]),
      buyersByRfc: new Map([['CAMA911215CJ0', 7]]),
      invoices: [invoice(1, '2026-11-17', 400), invoice(9, '2026-12-01', 400)],
    };
    const kinds = matchPayments(
      [
        line(2, 400, { referencia: reference }),
        line(3, 100, { referencia: reference }),
        line(4, 400, { rfcOrdenante: 'CAMA911215CJ0' }),
        line(5, 400, { rfcOrdenante: 'CAMA911215CJ0' }),
      ],
      world,
    ).map(({ match }) =>
      match.kind === 'no_identificada' ? match.kind : [match.kind, match.allocations, match.excess],
    );
    expect(kinds).toEqual([
      ['exacta', [{ invoiceId: 1, amount: 400 }], 0],
      ['sobrepago', [], 100],
      ['exacta', [{ invoiceId: 9, amount: 400 }], 0],
      'no_identificada',
    ]);
  });
});
