import { describe, expect, it } from 'vitest';
import { INVOICE_STATUS_CODES, InvoiceStatus } from '../../src/domain/invoice-status';
import { checkCompanyRfc } from '../../src/domain/rfc';
import { DEMO_CORPORATE, DEMO_PROVIDERS } from './demo-world';
import { lifecyclePaths } from './lifecycle-paths';
import { generatedCompanies, MAX_SCALE_CORPORATES, MAX_SCALE_PROVIDERS } from './scale-world';

describe('lifecyclePaths', () => {
  const paths = lifecyclePaths(4);

  it('reaches every status from AVAILABLE, the empty walk first, each walk at most 4 events long', () => {
    expect(paths[0]).toEqual({ steps: [], status: InvoiceStatus.AVAILABLE, buyerFundsAdvance: false });
    expect(new Set(paths.map((path) => path.status))).toEqual(new Set(INVOICE_STATUS_CODES));
    expect(paths.every((path) => path.steps.length <= 4)).toBe(true);
  });

  it('chains each walk: every event starts where the previous one left the invoice', () => {
    for (const path of paths) {
      let at: number = InvoiceStatus.AVAILABLE;
      for (const step of path.steps) {
        expect(step.from).toBe(at);
        at = step.to;
      }
      expect(at).toBe(path.status);
    }
  });

  it('worked example: a paid invoice was advanced after an authorization and disbursed by the operator', () => {
    const paid = paths.filter((path) => path.status === InvoiceStatus.PAID);
    expect(paid.map((path) => path.steps.map((step) => `${step.event}/${step.actor}`))).toContainEqual([
      'invoice.requestAuthorization/provider',
      'invoice.authorize/corporate',
      'invoice.approveAdvance/provider',
      'invoice.disburse/operator',
    ]);
    expect(paid.every((path) => path.steps.at(-1)?.actor === 'operator')).toBe(true);
  });
});

describe('generatedCompanies', () => {
  it('gives every generated company a valid, unique RFC with its check digit, none of the demo’s', () => {
    const companies = [
      ...generatedCompanies('provider', MAX_SCALE_PROVIDERS),
      ...generatedCompanies('corporate', MAX_SCALE_CORPORATES),
    ];
    const rfcs = companies.map((company) => company.rfc);
    expect(new Set(rfcs).size).toBe(rfcs.length);
    for (const rfc of rfcs) {
      const check = checkCompanyRfc(rfc);
      expect(check.ok && check.checkDigitValid, rfc).toBe(true);
    }
    const demo = [DEMO_CORPORATE.rfc, ...DEMO_PROVIDERS.map((provider) => provider.rfc)];
    expect(rfcs.filter((rfc) => demo.includes(rfc))).toEqual([]);
  });
});
