import type { WalletResponse } from '../../domain/schemas/wallet';

export type LoanPosition = NonNullable<NonNullable<WalletResponse['repayment']>['position']>;

/**
 * ₱100,000 paid out on 2025-03-02 over 2 months at 2 % a month; on 2025-04-12 the first payment is 10 days
 * overdue (₱10,000 of it paid), the second upcoming. One loan for every web test that needs a position.
 */
export const overduePosition: LoanPosition = {
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
    {
      number: 1,
      dueDate: '2025-04-02',
      paymentMinor: 5_150_495,
      principalMinor: 4_950_495,
      interestMinor: 200_000,
      balanceMinor: 5_049_505,
      paidMinor: 1_000_000,
      unpaidMinor: 4_150_495,
      status: 'overdue',
      daysPastDue: 10,
      settledEarlyOn: null,
    },
    {
      number: 2,
      dueDate: '2025-05-02',
      paymentMinor: 5_150_495,
      principalMinor: 5_049_505,
      interestMinor: 100_990,
      balanceMinor: 0,
      paidMinor: 0,
      unpaidMinor: 5_150_495,
      status: 'upcoming',
      daysPastDue: 0,
      settledEarlyOn: null,
    },
  ],
};
