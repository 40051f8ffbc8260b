import { describe, expect, it } from 'vitest';
import { buildSchedule, scheduleTotals } from '../schedule';
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

  it('says what each ceiling is, and accepts the edges', () => {
    expect(checkCostCaps(defaultLoanProduct, { graceDays: 32, lateChargeMonthlyBp: 0 })).toEqual([
      { field: 'graceDays', message: 'graceDays must be a whole number from 0 to 31' },
    ]);
    expect(checkCostCaps(defaultLoanProduct, { graceDays: 31, lateChargeMonthlyBp: 0 })).toEqual([]);
    expect(checkCostCaps(defaultLoanProduct, { graceDays: 3, lateChargeMonthlyBp: 501 })).toEqual([
      { field: 'lateChargeMonthlyBp', message: 'late charge must be 0–500 bp a month (5 %)' },
    ]);
    // A rate out of range is the only issue reported: the cost checks would repeat it (or could not run).
    for (const monthlyRateBp of [601, -1, 1.5]) {
      expect(checkCostCaps(product({ monthlyRateBp }), defaultRepaymentRules)).toEqual([
        { field: 'monthlyRateBp', message: 'monthly rate must be 0–600 bp (6 % a month)' },
      ]);
    }
    expect(checkCostCaps(product({ monthlyRateBp: 0 }), defaultRepaymentRules)).toEqual([]);
  });

  it('checks the largest amount of each range too, and a fee equal to the loan takes all of it', () => {
    const issues = checkCostCaps(
      product({ fees: { flatMinor: 0, percentBp: 10_000 } }),
      defaultRepaymentRules,
    );
    const messages = issues.map((i) => i.message);
    expect(messages).toContain('fees take the whole loan (₱300000 over 6 months)');
    expect(messages).toContain('fees take the whole loan (₱2000000 over 24 months)');
    expect(issues).toHaveLength(4 * 4); // two ranges × (min, max) × four terms, nothing else
    expect(issues.every((i) => i.field === 'fees')).toBe(true);
  });

  it('interest alone past 100 % is the rate at fault', () => {
    // 6 % a month over 36 months repays about 246 % of the principal.
    const issues = checkCostCaps(product({ monthlyRateBp: 600, termsMonths: [36], defaultTermMonths: 36 }), {
      graceDays: 3,
      lateChargeMonthlyBp: 0,
    });
    expect(issues).toContainEqual({
      field: 'monthlyRateBp',
      message: 'interest and fees exceed 100 % of the principal (₱10000 over 36 months)',
    });
    expect(issues.every((i) => i.field === 'monthlyRateBp')).toBe(true);
  });

  it('interest plus fees of exactly 100 % is still allowed', () => {
    const amountMinor = 1_000_000; // ₱10,000, the smallest loan, over 6 months at 2 %
    const interest = scheduleTotals(
      buildSchedule({ amountMinor, termMonths: 6, monthlyRateBp: 200, startDate: '2000-01-01' }),
    ).totalInterestMinor;
    const at = (flatMinor: number) =>
      checkCostCaps(product({ termsMonths: [6], fees: { flatMinor, percentBp: 0 } }), defaultRepaymentRules)
        .map((i) => i.message)
        .filter((m) => m.startsWith('interest and fees exceed'));
    expect(at(amountMinor - interest)).toEqual([]);
    expect(at(amountMinor - interest + 1)).toEqual([
      'interest and fees exceed 100 % of the principal (₱10000 over 6 months)',
    ]);
  });

  it('a fee that lifts the effective rate above 15 % a month is named with the loan it breaks', () => {
    const issues = checkCostCaps(
      product({ fees: { flatMinor: 0, percentBp: 5_000 } }),
      defaultRepaymentRules,
    );
    expect(issues).toContainEqual({
      field: 'fees',
      message: 'effective rate above 15 % a month (₱10000 over 6 months)',
    });
  });

  it('assertWithinCostCaps throws one message listing every issue', () => {
    expect(() =>
      assertWithinCostCaps(product({ monthlyRateBp: 700 }), { graceDays: 3, lateChargeMonthlyBp: 900 }),
    ).toThrow(
      'Loan configuration above the legal ceilings:\n' +
        '  lateChargeMonthlyBp: late charge must be 0–500 bp a month (5 %)\n' +
        '  monthlyRateBp: monthly rate must be 0–600 bp (6 % a month)',
    );
  });

  it('assertWithinCostCaps lists issues in order and is silent within the ceilings', () => {
    expect(() =>
      assertWithinCostCaps(product({ monthlyRateBp: 700 }), { graceDays: 3, lateChargeMonthlyBp: 900 }),
    ).toThrow(/lateChargeMonthlyBp[\s\S]*monthlyRateBp/);
    expect(() => assertWithinCostCaps(defaultLoanProduct, defaultRepaymentRules)).not.toThrow();
  });
});
