import { is } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { factoringPlan, toFactoringRequest } from './factoring';
import { factoringTermDays, isFactoringInstalments } from './factoring-terms';
import { FactoringRequest } from './schemas/factoring';

describe('factoringPlan', () => {
  it('worked example: 123,456.78 at 18.5% in 3 instalments (90 days)', () => {
    // interest = 123,456.78 × 0.185 / 360 × 90 = 5,709.876075 → 5,709.88
    // total = 123,456.78 + 5,709.88 = 129,166.66; / 3 = 43,055.5533… → 43,055.55
    // schedule 43,055.55 + 43,055.55 + 43,055.56 (remainder centavo on the last) = 129,166.66
    // fee = 123,456.78 × 0.01 × 1.16 = 1,432.098648 → 1,432.10; transfer = 122,024.68
    expect(factoringPlan(12_345_678, 18.5, 3)).toEqual({
      instalments: 3,
      days: 90,
      instalmentAmount: 4_305_555,
      totalPayment: 12_916_666,
      advisoryFee: 143_210,
      amountToTransfer: 12_202_468,
      schedule: [
        { number: 1, dueInDays: 30, amount: 4_305_555 },
        { number: 2, dueInDays: 60, amount: 4_305_555 },
        { number: 3, dueInDays: 90, amount: 4_305_556 },
      ],
    });
  });

  it('worked example: 1,000.07 at 18.5% in 2 instalments (60 days) rounds once, after dividing', () => {
    // exact interest = 1,000.07 × 0.185 / 360 × 60 = 30.835491…; exact total 1,030.905491…
    // instalment = 1,030.905491… / 2 = 515.452745… → 515.45 (rounding the interest first gives 515.46)
    // total 1,030.91; schedule 515.45 + 515.46 (remainder centavo on the last)
    const plan = factoringPlan(100_007, 18.5, 2);
    expect(plan.days).toBe(60);
    expect(plan.instalmentAmount).toBe(51_545);
    expect(plan.totalPayment).toBe(103_091);
    expect(plan.schedule.map((i) => i.amount)).toEqual([51_545, 51_546]);
  });

  it('worked example: 1,000.14 at 24% in 2 instalments (60 days)', () => {
    // exact interest = 1,000.14 × 0.24 × 60/360 = 40.0056; exact total 1,040.1456
    // instalment = 1,040.1456 / 2 = 520.0728 → 520.07 (rounding the interest first gives 520.08)
    const plan = factoringPlan(100_014, 24, 2);
    expect(plan.instalmentAmount).toBe(52_007);
    expect(plan.totalPayment).toBe(104_015);
    expect(plan.schedule.map((i) => i.amount)).toEqual([52_007, 52_008]);
    expect(toFactoringRequest(plan, { id: 1, fiscalFolio: 'F' }, 24).installmentPayment).toBe('520.07');
  });

  it('the shown instalment is the exact spec §9 value rounded to the nearest centavo', () => {
    // exact = amount × (36000 + rate × days) / 36000 / n with rate in hundredths of a percent (×100);
    // |instalment × n × 3,600,000 − amount × (3,600,000 + rateHundredths × days)| ≤ n × 3,600,000 / 2
    for (let amount = 99_990; amount <= 100_030; amount++) {
      for (const rateHundredths of [1740, 1850, 2400, 999]) {
        for (const n of [1, 2, 3, 4]) {
          const days = 30 * n;
          const plan = factoringPlan(amount, rateHundredths / 100, n);
          const scale = 3_600_000n;
          const exactTimesScale = BigInt(amount) * (scale + BigInt(rateHundredths * days));
          const diff = BigInt(plan.instalmentAmount) * BigInt(n) * scale - exactTimesScale;
          const abs = diff < 0n ? -diff : diff;
          expect(abs * 2n <= BigInt(n) * scale, `${amount} @ ${rateHundredths / 100}% × ${n}`).toBe(true);
        }
      }
    }
  });

  it('research example: 100,000.00 at 24% in 4 instalments', () => {
    // interest = 100,000 × 0.24 × 120/360 = 8,000; total 108,000; 27,000 each
    const plan = factoringPlan(10_000_000, 24, 4);
    expect(plan.totalPayment).toBe(10_800_000);
    expect(plan.schedule.map((i) => i.amount)).toEqual([2_700_000, 2_700_000, 2_700_000, 2_700_000]);
    expect(plan.advisoryFee).toBe(116_000);
    expect(plan.amountToTransfer).toBe(9_884_000);
  });

  it('the schedule always sums to the total, even when the last instalment is smaller', () => {
    // total 0.02 + … : 200 centavos / 3 → 67, 67, 66
    for (const amount of [1, 2, 199, 12_345_678, 99_999_999]) {
      for (const n of [1, 2, 3, 4]) {
        const plan = factoringPlan(amount, 17.4, n);
        expect(plan.schedule.reduce((s, i) => s + i.amount, 0)).toBe(plan.totalPayment);
        expect(plan.schedule.at(-1)!.dueInDays).toBe(30 * n);
      }
    }
  });

  it('terms are 30, 60, 90, 120 days', () => {
    expect([1, 2, 3, 4].map(factoringTermDays)).toEqual([30, 60, 90, 120]);
  });

  it('rejects instalments outside 1..4 and bad amounts', () => {
    for (const n of [0, 5, -1, 2.5, Number.NaN]) {
      expect(isFactoringInstalments(n)).toBe(false);
      expect(() => factoringPlan(10_000_000, 18.5, n), String(n)).toThrow();
    }
    expect(() => factoringPlan(0, 18.5, 1)).toThrow();
    expect(() => factoringPlan(100, -2, 1)).toThrow();
  });

  it('builds the spec §3 request payload', () => {
    const plan = factoringPlan(12_345_678, 18.5, 3);
    const body = toFactoringRequest(plan, { id: 7, fiscalFolio: 'A1B2' }, '18.50');
    expect(body).toEqual({
      invoice_id: 7,
      rate: 18.5,
      installments: 3,
      factoringConsultingFee: '1432.10',
      installmentPayment: '43055.55',
      totalPayment: '129166.66',
      invoiceFolio: 'A1B2',
    });
    expect(is(body, FactoringRequest)).toBe(true);
  });
});
