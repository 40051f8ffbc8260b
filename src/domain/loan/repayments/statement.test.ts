import { describe, expect, it } from 'vitest';
import type { LoanRecords } from './ledger';
import { buildStatementOfAccount } from './statement';

const loan: LoanRecords = {
  termMonths: 12,
  monthlyRateBp: 200,
  disbursements: [{ amountMinor: 10_000_000, paidOn: '2025-01-31' }],
  repayments: [],
  rules: { graceDays: 3, lateChargeMonthlyBp: 500 },
};

const brief = (statement: ReturnType<typeof buildStatementOfAccount>) =>
  statement.lines.map((l) => [l.date, l.kind, l.amountMinor, l.balanceMinor]);

describe('buildStatementOfAccount', () => {
  it('lists payouts, interest, late charges, repayments and reversals with a running balance', () => {
    const records: LoanRecords = {
      ...loan,
      repayments: [
        { id: 'a', amountMinor: 945_596, receivedOn: '2025-02-28' },
        { id: 'b', amountMinor: 945_596, receivedOn: '2025-03-31', reversedOn: '2025-04-02' },
      ],
    };
    const statement = buildStatementOfAccount(records, '2025-04-10');
    expect(brief(statement)).toEqual([
      ['2025-01-31', 'payout', 10_000_000, 10_000_000],
      ['2025-02-28', 'interest', 200_000, 10_200_000],
      ['2025-02-28', 'repayment', -945_596, 9_254_404],
      ['2025-03-31', 'interest', 185_088, 9_439_492],
      ['2025-03-31', 'repayment', -945_596, 8_493_896],
      ['2025-04-02', 'reversal', 945_596, 9_439_492],
      // Instalment 2 unpaid once the reversal is known: charged Apr 3 → Apr 10, 9,455.96 × 5 % × 7/31.
      ['2025-04-10', 'late_charge', 10_676, 9_450_168],
      // Instalment 3's month: 10 of the 30 days Mar 31 → Apr 30 on ₱84,938.96.
      ['2025-04-10', 'interest_accrued', 56_626, 9_506_794],
    ]);
    expect(statement.lines[2]?.allocation).toMatchObject({ interestMinor: 200_000, principalMinor: 745_596 });
    expect(statement.lines[4]).toMatchObject({ repaymentId: 'b', allocation: null });
    expect(statement).toMatchObject({
      principalPaidOutMinor: 10_000_000,
      interestChargedMinor: 200_000 + 185_088 + 56_626,
      lateChargesChargedMinor: 10_676,
      receivedMinor: 945_596,
      closingBalanceMinor: 9_506_794,
      paidInFull: false,
    });
  });

  it('shows a loan paid in full with a closing balance of zero', () => {
    const records: LoanRecords = {
      ...loan,
      repayments: [{ id: 'a', amountMinor: 10_100_000, receivedOn: '2025-02-14' }],
    };
    // Before and after the paid-off instalment's due date alike.
    expect(brief(buildStatementOfAccount(records, '2025-02-20'))).toEqual(
      brief(buildStatementOfAccount(records, '2025-06-30')),
    );
    const statement = buildStatementOfAccount(records, '2025-06-30');
    expect(brief(statement)).toEqual([
      ['2025-01-31', 'payout', 10_000_000, 10_000_000],
      ['2025-02-14', 'interest', 100_000, 10_100_000],
      ['2025-02-14', 'repayment', -10_100_000, 0],
    ]);
    expect(statement.closingBalanceMinor).toBe(0);
    expect(statement.paidInFull).toBe(true);
  });
});
