import { describe, expect, it } from 'vitest';
import { defaultLoanProduct, type LoanProduct } from '../terms';
import { assertWithinCostCaps, checkCostCaps, defaultRepaymentRules } from './caps';

const product = (change: Partial<LoanProduct>): LoanProduct => ({ ...defaultLoanProduct, ...change });
const fields = (p: LoanProduct, rules = defaultRepaymentRules) => [
  ...new Set(checkCostCaps(p, rules).map((issue) => issue.field)),
];

describe('checkCostCaps', () => {
  it('accepts the SPEC defaults, and the ceilings themselves', () => {
    expect(checkCostCaps(defaultLoanProduct, defaultRepaymentRules)).toEqual([]);
    // 6 % a month over 24 months is 91 % interest: still under 100 %.
    expect(
      checkCostCaps(product({ monthlyRateBp: 600 }), { graceDays: 0, lateChargeMonthlyBp: 500 }),
    ).toEqual([]);
  });

  it('refuses what the server accepts today: 15 % a month with a 50 % fee', () => {
    const issues = checkCostCaps(
      product({ monthlyRateBp: 1_500, fees: { flatMinor: 0, percentBp: 5_000 } }),
      defaultRepaymentRules,
    );
    expect(issues.map((i) => i.field)).toEqual(['monthlyRateBp']);
    // At a legal rate the 50 % fee alone still breaks the 15 %-a-month effective-rate ceiling.
    expect(fields(product({ fees: { flatMinor: 0, percentBp: 5_000 } }))).toEqual(['fees']);
  });

  it('refuses fees that push interest + fees past 100 % of the smallest loan', () => {
    // ₱10,000 over 24 months at 6 %: ₱9,12x interest + ₱1,000 flat fee > ₱10,000.
    const issues = checkCostCaps(
      product({ monthlyRateBp: 600, fees: { flatMinor: 100_000, percentBp: 0 } }),
      defaultRepaymentRules,
    );
    expect(issues).toContainEqual({
      field: 'fees',
      message: 'interest and fees exceed 100 % of the principal (₱10000 over 24 months)',
    });
    expect(issues.every((i) => i.field === 'fees')).toBe(true);
  });

  it('refuses a late charge above 5 % a month and a nonsensical grace period', () => {
    expect(fields(defaultLoanProduct, { graceDays: 3, lateChargeMonthlyBp: 501 })).toEqual([
      'lateChargeMonthlyBp',
    ]);
    expect(fields(defaultLoanProduct, { graceDays: 3, lateChargeMonthlyBp: -1 })).toEqual([
      'lateChargeMonthlyBp',
    ]);
    for (const graceDays of [-1, 1.5, 32]) {
      expect(fields(defaultLoanProduct, { graceDays, lateChargeMonthlyBp: 0 })).toEqual(['graceDays']);
    }
  });

  it('assertWithinCostCaps throws one message listing every issue', () => {
    expect(() =>
      assertWithinCostCaps(product({ monthlyRateBp: 700 }), { graceDays: 3, lateChargeMonthlyBp: 900 }),
    ).toThrow(/lateChargeMonthlyBp[\s\S]*monthlyRateBp/);
    expect(() => assertWithinCostCaps(defaultLoanProduct, defaultRepaymentRules)).not.toThrow();
  });
});
