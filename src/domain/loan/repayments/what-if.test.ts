import { describe, expect, it } from 'vitest';
import type { LoanRecords } from './ledger';
import { previewWithdrawal } from './what-if';

const loan = (disbursements: LoanRecords['disbursements'], repayments: LoanRecords['repayments'] = []) => ({
  termMonths: 12,
  monthlyRateBp: 200,
  disbursements,
  repayments,
});

describe('previewWithdrawal', () => {
  it('the first withdrawal starts the schedule: ₱100,000 → ₱9,455.96 a month from a month after payout', () => {
    expect(
      previewWithdrawal(loan([]), { amountMinor: 10_000_000, feeMinor: 0, payoutOn: '2025-01-31' }),
    ).toEqual({
      amountMinor: 10_000_000,
      feeMinor: 0,
      netMinor: 10_000_000,
      payoutOn: '2025-01-31',
      before: null,
      after: {
        monthlyPaymentMinor: 945_596,
        fromInstalment: 1,
        fromDueDate: '2025-02-28',
        totalRepayableMinor: 11_347_153,
        totalInterestMinor: 1_347_153,
        remainingToRepayMinor: 11_347_153,
        totalCostMinor: 1_347_153,
        // Without fees the actual cash flows cost exactly the contractual (1 + 2 %)^12 − 1.
        effectiveAnnualRate: '0.268242',
      },
    });
  });

  it('a second withdrawal shows the payment before and after, and from which due date', () => {
    // See ledger.test.ts: ₱50,000 + ₱50,000 fourteen days later → ₱9,409.61 a month.
    const preview = previewWithdrawal(loan([{ amountMinor: 5_000_000, paidOn: '2025-01-31' }]), {
      amountMinor: 5_000_000,
      feeMinor: 0,
      payoutOn: '2025-02-14',
    });
    expect(preview.before).toMatchObject({ monthlyPaymentMinor: 472_798, totalRepayableMinor: 5_673_576 });
    expect(preview.after).toMatchObject({
      monthlyPaymentMinor: 940_961,
      fromInstalment: 1,
      fromDueDate: '2025-02-28',
      totalRepayableMinor: 11_291_529,
    });
  });

  it('when the next instalment is already paid in full ahead, the new payment starts with the one after', () => {
    const records = loan(
      [{ amountMinor: 5_000_000, paidOn: '2025-01-31' }],
      [{ id: 'a', amountMinor: 472_798, receivedOn: '2025-02-10' }],
    );
    const preview = previewWithdrawal(records, {
      amountMinor: 5_000_000,
      feeMinor: 0,
      payoutOn: '2025-02-14',
    });
    expect(preview.after.fromInstalment).toBe(2);
    expect(preview.after.fromDueDate).toBe('2025-03-31');
    expect(preview.after.monthlyPaymentMinor).toBeGreaterThan(472_798);
    expect(preview.after.remainingToRepayMinor).toBe(preview.after.totalRepayableMinor - 472_798);
  });

  it('a fee taken from the payout: what the borrower receives, the cost and the rate of the real cash flows', () => {
    // ₱1,500 of fees on ₱100,000: the borrower gets ₱98,500 and repays the same schedule, so the effective
    // rate is the disclosure's own (0.305584, disclosure.test.ts).
    const first = previewWithdrawal(loan([]), {
      amountMinor: 10_000_000,
      feeMinor: 150_000,
      payoutOn: '2025-01-31',
    });
    expect(first).toMatchObject({ feeMinor: 150_000, netMinor: 9_850_000 });
    expect(first.after).toMatchObject({
      totalCostMinor: 1_347_153 + 150_000,
      effectiveAnnualRate: '0.305584',
    });
    // A second tranche with its own fee: the plan before counts the first fee, the plan after both.
    const second = previewWithdrawal(
      loan([{ amountMinor: 5_000_000, paidOn: '2025-01-31', feeMinor: 100_000 }]),
      {
        amountMinor: 5_000_000,
        feeMinor: 50_000,
        payoutOn: '2025-02-14',
      },
    );
    expect(second.before).toMatchObject({
      totalCostMinor: 673_576 + 100_000,
      effectiveAnnualRate: '0.318443',
    });
    expect(second.after).toMatchObject({
      totalCostMinor: 1_291_529 + 150_000,
      effectiveAnnualRate: '0.307379',
    });
  });

  it('refuses a fee that takes the whole payout', () => {
    expect(() =>
      previewWithdrawal(loan([]), { amountMinor: 10_000, feeMinor: 10_000, payoutOn: '2025-01-31' }),
    ).toThrow(/fee/);
  });

  it('refuses a non-positive or fractional amount', () => {
    expect(() =>
      previewWithdrawal(loan([]), { amountMinor: 0, feeMinor: 0, payoutOn: '2025-01-31' }),
    ).toThrow();
    expect(() =>
      previewWithdrawal(loan([]), { amountMinor: 1.5, feeMinor: 0, payoutOn: '2025-01-31' }),
    ).toThrow();
  });
});
