import { describe, expect, it } from 'vitest';
import type { WalletResponse } from '../../domain/schemas/wallet';
import { loanNow } from './loan-now';

type Position = NonNullable<NonNullable<WalletResponse['repayment']>['position']>;
type Row = Position['schedule'][number];
const row = (number: number, dueDate: string, change: Partial<Row>): Row => ({
  number,
  dueDate,
  paymentMinor: 5_150_495,
  principalMinor: 4_950_495,
  interestMinor: 200_000,
  balanceMinor: 0,
  paidMinor: 0,
  unpaidMinor: 5_150_495,
  status: 'upcoming',
  daysPastDue: 0,
  settledEarlyOn: null,
  ...change,
});
/** ₱100,000 paid out on 2025-03-02 over 2 months; on 2025-04-12 the first payment is 10 days overdue. */
const position: Position = {
  asOf: '2025-04-12',
  startDate: '2025-03-02',
  principalPaidOutMinor: 10_000_000,
  outstandingPrincipalMinor: 9_000_000,
  interestDueMinor: 0,
  interestAccruedMinor: 33_000,
  lateChargesDueMinor: 0,
  paidAheadMinor: 0,
  overpaidMinor: 0,
  creditMinor: 0,
  refundedMinor: 0,
  payoffMinor: 9_233_000,
  amountDueNowMinor: 4_150_495,
  levelPaymentMinor: 5_150_495,
  nextPayment: { number: 1, dueDate: '2025-04-02', amountMinor: 4_150_495 },
  daysPastDue: 10,
  overdueMinor: 4_150_495,
  graceDays: 3,
  lateChargeMonthlyBp: 0,
  schedule: [
    row(1, '2025-04-02', {
      paidMinor: 1_000_000,
      unpaidMinor: 4_150_495,
      status: 'overdue',
      daysPastDue: 10,
    }),
    row(2, '2025-05-02', {}),
  ],
};
const allPaid = position.schedule.map((row) => ({ ...row, status: 'paid' as const, unpaidMinor: 0 }));

describe('loanNow', () => {
  it('overdue: the one figure, days late from the oldest unpaid due date, the next instalment after it', () => {
    expect(loanNow(position, null)).toMatchObject({
      kind: 'overdue',
      amountMinor: position.amountDueNowMinor,
      daysLate: 10,
      since: '2025-04-02',
      payBy: null,
      instalments: [{ number: 1, unpaidMinor: 4_150_495, overdue: true }],
      after: { number: 2, dueDate: '2025-05-02' },
    });
  });

  it('owing with no instalment left (a refund a reversal made owed again): the payoff, not "paid in full"', () => {
    const owing = { ...position, amountDueNowMinor: 0, payoffMinor: 12_345, schedule: allPaid };
    expect(loanNow(owing, null)).toEqual({ kind: 'owing', amountMinor: 12_345 });
  });

  it('nothing owed: paid in full, on the day given', () => {
    const paid = { ...position, amountDueNowMinor: 0, payoffMinor: 0, schedule: allPaid };
    expect(loanNow(paid, 'Apr 20, 2025')).toEqual({ kind: 'paidInFull', on: 'Apr 20, 2025' });
  });
});
