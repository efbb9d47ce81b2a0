import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { testAuthority, withAttribute } from '../../test/fixtures/cfdi';
import { makePaymentCfdi } from '../../test/fixtures/payment-cfdi';
import { parseCfdi } from './parse-cfdi';
import { MAX_PAID_DOCUMENTS, parsePaymentCfdi, paymentComplementReasons } from './parse-payments';
import { trustStoreOf } from './trust-store';
import { sealRefusals, verifyCfdiSeal } from './verify-cfdi';

const INVOICE_A = '11111111-2222-4333-8444-555555555555';
const INVOICE_B = 'aaaaaaaa-bbbb-4ccc-8ddd-eeeeeeeeeeee';

function trust() {
  const authority = testAuthority();
  return trustStoreOf([authority.certificate, authority.stamping.certificate]);
}

describe('parsePaymentCfdi', () => {
  it('reads the payment and each related document of a signed REP', () => {
    const xml = makePaymentCfdi({
      documents: [
        { uuid: INVOICE_A, serie: 'A', folio: '7', previousBalance: '11600.00', paid: '11600.00' },
        { uuid: INVOICE_B, installment: 2, previousBalance: '5000.00', paid: '1200.50' },
      ],
    });
    const parsed = parsePaymentCfdi(xml, 'rep.xml');

    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(parsed.cfdi.voucherType).toBe('P');
    expect(parsed.cfdi.currency).toBe('XXX');
    expect(parsed.complement.totalAmount).toBe('12800.50');
    expect(parsed.complement.payments).toEqual([
      {
        paidAt: '2025-04-18T12:00:00',
        paymentForm: '03',
        currency: 'MXN',
        exchangeRate: '1',
        amount: '12800.50',
        documents: [
          {
            uuid: INVOICE_A,
            serie: 'A',
            folio: '7',
            currency: 'MXN',
            equivalence: '1',
            installment: 1,
            previousBalance: '11600.00',
            paid: '11600.00',
            remainingBalance: '0.00',
          },
          {
            uuid: INVOICE_B.toUpperCase(),
            serie: null,
            folio: null,
            currency: 'MXN',
            equivalence: '1',
            installment: 2,
            previousBalance: '5000.00',
            paid: '1200.50',
            remainingBalance: '3799.50',
          },
        ],
      },
    ]);
  });

  it('is sealed over a cadena original that covers the Pagos 2.0 complement', () => {
    const xml = makePaymentCfdi();
    const parsed = parseCfdi(xml);
    if (!parsed.ok) throw new Error(parsed.reason);
    expect(verifyCfdiSeal(parsed.root, parsed.cfdi, trust()).ok).toBe(true);

    // ImpPagado is in SAT's cadena (Pagos20.xslt): changing it breaks the seal.
    const forged = xml.replace('ImpPagado="11600.00"', 'ImpPagado="11500.00"');
    const forgedParsed = parseCfdi(forged);
    if (!forgedParsed.ok) throw new Error(forgedParsed.reason);
    const verification = verifyCfdiSeal(forgedParsed.root, forgedParsed.cfdi, trust());
    expect(verification.ok ? null : verification.reason).toBe(sealRefusals.seal);
  });

  it('reads SAT-shaped samples with taxes per document', () => {
    const sample = readFileSync('test/fixtures/cfdi-samples/06-pagos.xml', 'utf8');
    const parsed = parsePaymentCfdi(sample);

    expect(parsed.ok && parsed.complement.payments[0]?.documents.map((d) => [d.uuid, d.paid])).toEqual([
      ['FCD8476B-EE9D-4811-9FBC-CE22C8946F6A', '5746.67'],
      ['AB12CD34-EF56-4A78-9B0C-D1E2F3A4B5C6', '300.00'],
    ]);
  });

  it('refuses an invoice (type I) and a type P without the complement', () => {
    const invoice = makePaymentCfdi().replace('TipoDeComprobante="P"', 'TipoDeComprobante="I"');
    expect(parsePaymentCfdi(invoice)).toEqual({ ok: false, reason: paymentComplementReasons.notPayment });

    const bare = makePaymentCfdi().replace(/<pago20:Pagos[\s\S]*<\/pago20:Pagos>/, '');
    expect(parsePaymentCfdi(bare)).toEqual({ ok: false, reason: paymentComplementReasons.missing });
  });

  it('names missing or malformed fields in Spanish', () => {
    const noUuid = withAttribute(makePaymentCfdi(), 'DoctoRelacionado', 'IdDocumento', null);
    expect(parsePaymentCfdi(noUuid)).toEqual({
      ok: false,
      reason: paymentComplementReasons.missingAttributes(['IdDocumento (DoctoRelacionado 1.1)']),
    });
    const badUuid = withAttribute(makePaymentCfdi(), 'DoctoRelacionado', 'IdDocumento', 'no-es-uuid');
    expect(parsePaymentCfdi(badUuid)).toEqual({
      ok: false,
      reason: paymentComplementReasons.badUuid('no-es-uuid'),
    });
    const badAmount = withAttribute(makePaymentCfdi(), 'DoctoRelacionado', 'ImpPagado', '-5');
    expect(parsePaymentCfdi(badAmount)).toEqual({
      ok: false,
      reason: paymentComplementReasons.badAmount('ImpPagado', '-5'),
    });
    const badInstallment = withAttribute(makePaymentCfdi(), 'DoctoRelacionado', 'NumParcialidad', '0');
    expect(parsePaymentCfdi(badInstallment)).toEqual({
      ok: false,
      reason: paymentComplementReasons.badInstallment('0'),
    });
  });

  it('refuses more related documents than the bound, and a complement hidden in the Addenda', () => {
    const xml = makePaymentCfdi();
    const line = /\s*<pago20:DoctoRelacionado[^>]*\/>/.exec(xml)?.[0] ?? '';
    const flooded = xml.replace(line, line.repeat(MAX_PAID_DOCUMENTS + 1));
    expect(parsePaymentCfdi(flooded)).toEqual({ ok: false, reason: paymentComplementReasons.tooMany });

    const pagos = /<pago20:Pagos[\s\S]*<\/pago20:Pagos>/.exec(xml)?.[0] ?? '';
    const hidden = xml
      .replace(pagos, '')
      .replace('</cfdi:Comprobante>', `<cfdi:Addenda>${pagos}</cfdi:Addenda></cfdi:Comprobante>`);
    expect(parsePaymentCfdi(hidden)).toEqual({ ok: false, reason: paymentComplementReasons.missing });
  });
});
