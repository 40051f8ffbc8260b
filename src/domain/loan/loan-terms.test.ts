import { describe, expect, it } from 'vitest';
import { loanTermsOf, parseLoanTerms, payoutFeeMinor, repaymentRulesOf } from './loan-terms';
import { defaultLoanProduct } from './terms';

const terms = loanTermsOf(
  { ...defaultLoanProduct, monthlyRateBp: 250, fees: { flatMinor: 50_000, percentBp: 150 } },
  { graceDays: 5, lateChargeMonthlyBp: 300 },
);

describe('a loan’s own terms', () => {
  it('are the product’s rate and fees with its repayment rules, and read back as written', () => {
    expect(terms).toEqual({
      monthlyRateBp: 250,
      fees: { flatMinor: 50_000, percentBp: 150, collection: 'deducted_from_payout' },
      lateChargeMonthlyBp: 300,
      graceDays: 5,
      rounding: 'half_up_per_instalment',
    });
    expect(parseLoanTerms(JSON.stringify(terms))).toEqual(terms);
    expect(repaymentRulesOf(terms)).toEqual({ graceDays: 5, lateChargeMonthlyBp: 300 });
  });

  it('refuse a stored snapshot that is missing a term or carries another', () => {
    const { graceDays: _grace, ...missing } = terms;
    expect(() => parseLoanTerms(missing)).toThrow(/not valid/);
    expect(() => parseLoanTerms({ ...terms, note: 'x' })).toThrow(/not valid/);
    expect(() => parseLoanTerms(null)).toThrow(/not valid/);
  });
});

describe('payoutFeeMinor', () => {
  it('takes the percentage of each payout, half-up, and the flat fee from the first one only', () => {
    // 1.5 % of ₱40,000.33 = ₱600.00495 → ₱600.00; the first payout also carries the ₱500 flat fee.
    expect(payoutFeeMinor(terms, 4_000_033, true)).toBe(50_000 + 60_000);
    expect(payoutFeeMinor(terms, 4_000_033, false)).toBe(60_000);
    // An exact half centavo rounds up: 1.5 % of ₱0.99 = 1.485 centavos → 1.
    expect(payoutFeeMinor(terms, 99, false)).toBe(1);
    expect(payoutFeeMinor(terms, 100, false)).toBe(2);
  });

  it('is nothing without fees', () => {
    expect(
      payoutFeeMinor(
        loanTermsOf(defaultLoanProduct, { graceDays: 3, lateChargeMonthlyBp: 0 }),
        10_000_000,
        true,
      ),
    ).toBe(0);
  });
});
