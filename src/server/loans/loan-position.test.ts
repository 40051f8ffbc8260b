import { describe, expect, it } from 'vitest';
import { loanTermsOf } from '../../domain/loan/loan-terms';
import { defaultRepaymentRules } from '../../domain/loan/repayments';
import { defaultLoanProduct } from '../../domain/loan/terms';
import { feesOnPaidOut } from './loan-position';

const terms = (fees: { flatMinor: number; percentBp: number }) =>
  loanTermsOf({ ...defaultLoanProduct, fees }, defaultRepaymentRules);

describe('feesOnPaidOut', () => {
  it("charges the loan's own fee terms on the principal actually paid out", () => {
    // ₱40,000 of a ₱100,000 loan paid out: ₱500 flat + 1 % of ₱40,000.
    expect(feesOnPaidOut(terms({ flatMinor: 50_000, percentBp: 100 }), 4_000_000)).toBe(50_000 + 40_000);
  });
  it('is nothing before a payout, and nothing for a loan without fees', () => {
    expect(feesOnPaidOut(terms({ flatMinor: 50_000, percentBp: 0 }), 0)).toBe(0);
    expect(feesOnPaidOut(terms({ flatMinor: 0, percentBp: 0 }), 1_000_000)).toBe(0);
  });
});
