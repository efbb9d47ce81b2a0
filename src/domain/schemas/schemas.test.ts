import { is } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { ALLIANCE_MESSAGES } from '../alliance-terms';
import { MONEY_MESSAGES } from '../money';
import { PROGRAMME_MESSAGES, ProposeProgrammeBody, RecordCollectionBody } from './credit-programmes';
import { FactoringRequest } from './factoring';
import { Invoice, InvoicePage, KnowYourBusinessRow, MessageResponse } from './invoices';
import { AllianceInput } from './operator-alliances';
import {
  ExcelUploadResponse,
  PreApprovedResponse,
  QuotationA,
  QuotationB,
  QuotationList,
  TemplateUploadResponse,
  ZipUploadResponse,
} from './quotations';
import { LoginResponse, Profile, TokenRefreshResponse } from './session';
import { StatementReportResponse } from './statements';
import { fieldErrors } from './validate';

const invoice = {
  id: 1,
  fiscal_folio: '6F1E2B3C-0000-4000-8000-000000000001',
  emitter_name: 'Tornillos del Norte',
  emitter_rfc: 'TNO010101AB1',
  receiver_name: 'Grupo Comprador',
  receiver_rfc: 'GCO020202CD2',
  date_of_emission: '2026-01-10',
  payment_date: null,
  amount: '116000.00',
  description: 'Tornillería',
  status: 60,
  days_payable: null,
  factoring_date: null,
  amount_with_exchange_rate: '116000.00',
  amount_with_exchange_rate_usd: null,
  exchange_rate: '-',
  cost_consultancy: null,
  factoring_rate: null,
};

describe('response structs', () => {
  it('accept the spec shapes and tolerate extra fields', () => {
    expect(is(invoice, Invoice)).toBe(true);
    expect(is({ ...invoice, serie: 'A' }, Invoice)).toBe(true);
    expect(is({ ...invoice, status: 80 }, Invoice)).toBe(false);
    expect(is({ ...invoice, amount: '116000' }, Invoice)).toBe(false);
    expect(
      is(
        {
          count: 1,
          next: null,
          previous: null,
          results: [invoice],
          indicators: { total: '116000.00', count: 1, suppliers_customers: 1 },
          has_factoring: false,
        },
        InvoicePage,
      ),
    ).toBe(true);
    expect(is({ count: 0, next: null, previous: null, results: [] }, InvoicePage)).toBe(true);
  });

  it('session responses', () => {
    expect(is({ access: 'a', refresh: 'r' }, LoginResponse)).toBe(true);
    expect(
      is(
        {
          access: 'a',
          sat_credentials_status: 30,
          corporate_can_pay_costs: false,
          has_factoring: true,
          is_corporate: false,
        },
        TokenRefreshResponse,
      ),
    ).toBe(true);
    expect(
      is(
        {
          first_name: 'A',
          last_name: 'B',
          mobile_phone: '1',
          company: 'C',
          receive_notification: false,
          wallet_clabe: null,
        },
        Profile,
      ),
    ).toBe(true);
  });

  it('invoice-side shapes', () => {
    expect(is({ message: 'ok', message_type: 'success' }, MessageResponse)).toBe(true);
    expect(is({ message: 'ok', message_type: 'danger' }, MessageResponse)).toBe(false);
    const row = {
      indicator_date: '2026-01',
      incomes_mxn: '1.00',
      expenses_mxn: '1.00',
      incomes_usd: '0.00',
      expenses_usd: '0.00',
      net_capital_mxn: '0.00',
      net_capital_usd: '0.00',
      incomes_canceled: '0.00',
      expenses_canceled: '0.00',
    };
    expect(is(row, KnowYourBusinessRow)).toBe(true);
    const factoring = {
      invoice_id: 1,
      rate: 18.5,
      installments: 5,
      factoringConsultingFee: '1.16',
      installmentPayment: '1.00',
      totalPayment: '5.00',
      invoiceFolio: 'X',
    };
    expect(is(factoring, FactoringRequest)).toBe(false);
    expect(is({ ...factoring, installments: 4 }, FactoringRequest)).toBe(true);
  });

  it('quotation shapes', () => {
    expect(
      is(
        {
          quotes: [
            {
              id: 1,
              emitter_name: 'A',
              description: 'd',
              fiscal_folio: 'F',
              amount: '10.00',
              payment_date: '2026-03-02',
              emitter_rfc: 'R',
              remaining_days: 45,
            },
          ],
          resume: { total_quote: '10.00', total_quote_usd: '0.00', total_invoices: 1 },
        },
        QuotationA,
      ),
    ).toBe(true);
    expect(
      is(
        {
          quotes: [{ fiscal_folio: 'F', amount: '10.00', cost_financing: '0.22', remaining_days: 45 }],
          resume: {
            rate: 17.4,
            total_invoices: 1,
            total_financing: '0.22',
            total_consultancy: '0.12',
            total: '9.66',
          },
        },
        QuotationB,
      ),
    ).toBe(true);
    expect(
      is(
        { message: 'm', payment_date_message: 'p', total_quote: '1.00', total_invoices: 1 },
        PreApprovedResponse,
      ),
    ).toBe(true);
    expect(is([{ invoice_id: 'F1', payment_date: '2026-03-02' }], QuotationList)).toBe(true);
    expect(is([{ invoice_id: 7, payment_date: '2026-03-02' }], ZipUploadResponse)).toBe(true);
    expect(is({ invoice_id: 7, payment_date: '2026-03-02' }, ZipUploadResponse)).toBe(false);
    expect(is({ validation_errors: [] }, ExcelUploadResponse)).toBe(true);
    expect(is({ validation_errors: { fila_2: 'fecha inválida' } }, ExcelUploadResponse)).toBe(true);
    expect(
      is({ processed_invoices: [{ fiscal_folio: 'F', payment_date: '2026-03-02' }] }, TemplateUploadResponse),
    ).toBe(true);
    expect(is({ file_data: 'UEsDBA==', file_name: 'estado.xlsx' }, StatementReportResponse)).toBe(true);
  });
});

describe('money a request carries', () => {
  const tooLarge = [MONEY_MESSAGES.tooLarge];
  const proposal = { corporate_id: 1, starts_on: '2026-01-01', ends_on: '2026-12-31' };
  const collection = { invoice_id: 1, clave_rastreo: 'ABC123', fecha: '2026-03-10' };
  const factoring = {
    invoice_id: 1,
    rate: 18.5,
    installments: 1,
    factoringConsultingFee: '1160.00',
    installmentPayment: '101541.67',
    totalPayment: '101541.67',
    invoiceFolio: 'X',
  };

  it('accepts amounts up to 999,999,999,999.99', () => {
    expect(fieldErrors(ProposeProgrammeBody, { ...proposal, limit: '999999999999.99' })).toEqual({});
    expect(fieldErrors(RecordCollectionBody, { ...collection, amount: '999999999999.99' })).toEqual({});
    expect(
      fieldErrors(FactoringRequest, { ...factoring, factoringConsultingFee: '999999999999.99' }),
    ).toEqual({});
    expect(fieldErrors(FactoringRequest, { ...factoring, factoringConsultingFee: '0.00' })).toEqual({});
    expect(
      fieldErrors(AllianceInput, {
        corporate_id: 1,
        provider_rfc: 'TNO010101AB1',
        annual_rate: 15,
        max_days: 90,
        max_amount: '999999999999.99',
      }),
    ).toEqual({});
  });

  it('refuses one centavo more, and far more, on the field with one Spanish message', () => {
    // Typed with separators, a huge figure is still told it is too large (issue 33), not how to type it.
    for (const limit of ['1000000000000.00', '999999999999999.99', '9'.repeat(40), '$1,000,000,000,000']) {
      expect(fieldErrors(ProposeProgrammeBody, { ...proposal, limit })).toEqual({ limit: tooLarge });
    }
    expect(fieldErrors(RecordCollectionBody, { ...collection, amount: '999999999999999.99' })).toEqual({
      amount: tooLarge,
    });
    expect(
      fieldErrors(FactoringRequest, {
        ...factoring,
        factoringConsultingFee: '9999999999999999.99',
        installmentPayment: '1000000000000.00',
        totalPayment: '-1.00',
      }),
    ).toEqual({
      factoringConsultingFee: tooLarge,
      installmentPayment: tooLarge,
      totalPayment: ['Valor no válido'],
    });
    expect(
      fieldErrors(AllianceInput, {
        corporate_id: 1,
        provider_rfc: 'TNO010101AB1',
        annual_rate: 15,
        max_days: 90,
        max_amount: '99999999999999999.99',
      }),
    ).toEqual({ max_amount: tooLarge });
  });

  it("keeps each field's own message for what is not an amount at all", () => {
    expect(fieldErrors(ProposeProgrammeBody, { ...proposal, limit: '0' })).toEqual({
      limit: [PROGRAMME_MESSAGES.limitInvalid],
    });
    expect(
      fieldErrors(AllianceInput, {
        corporate_id: 1,
        provider_rfc: 'TNO010101AB1',
        annual_rate: 15,
        max_days: 90,
        max_amount: '-5',
      }),
    ).toEqual({ max_amount: [ALLIANCE_MESSAGES.amount] });
  });
});
