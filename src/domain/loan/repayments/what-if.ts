import { assertMinor } from '../../money';
import { deriveLoanPosition, type LoanPosition, type LoanRecords } from './ledger';

export interface PaymentPlanFigures {
  /** The payment of every instalment from `fromInstalment` on (the last may differ by rounding). */
  monthlyPaymentMinor: number;
  fromInstalment: number | null;
  fromDueDate: string | null;
  /** All instalments of the loan, those already due included. */
  totalRepayableMinor: number;
  totalInterestMinor: number;
  /** What is still to be paid: every unpaid instalment and late charge. */
  remainingToRepayMinor: number;
}

export interface WithdrawalPreview {
  amountMinor: number;
  payoutOn: string;
  /** Null for the first withdrawal: there is no schedule yet. */
  before: PaymentPlanFigures | null;
  after: PaymentPlanFigures;
}

function figures(position: LoanPosition): PaymentPlanFigures {
  const from = position.levelFromInstalment;
  const fromRow = from === null ? undefined : position.schedule[from - 1];
  return {
    monthlyPaymentMinor: position.levelPaymentMinor,
    fromInstalment: from,
    fromDueDate: fromRow?.dueDate ?? null,
    totalRepayableMinor: position.schedule.reduce((sum, row) => sum + row.paymentMinor, 0),
    totalInterestMinor: position.totalInterestMinor,
    remainingToRepayMinor:
      position.schedule.reduce((sum, row) => sum + row.unpaidMinor, 0) + position.lateChargesDueMinor,
  };
}

/**
 * Re-disclosure before a withdrawal: the payment plan as it stands on the expected payout date, and as it
 * would be if `amountMinor` were paid out that day (and nothing else happened). The withdrawal code can
 * be bound to `after`.
 */
export function previewWithdrawal(
  records: LoanRecords,
  withdrawal: { amountMinor: number; payoutOn: string },
): WithdrawalPreview {
  assertMinor(withdrawal.amountMinor, 'amountMinor');
  if (withdrawal.amountMinor <= 0) throw new Error('A withdrawal must be positive');
  const { payoutOn } = withdrawal;
  const hasPayout = records.disbursements.some((d) => d.paidOn <= payoutOn);
  const after = deriveLoanPosition(
    {
      ...records,
      disbursements: [...records.disbursements, { amountMinor: withdrawal.amountMinor, paidOn: payoutOn }],
    },
    payoutOn,
  );
  return {
    amountMinor: withdrawal.amountMinor,
    payoutOn,
    before: hasPayout ? figures(deriveLoanPosition(records, payoutOn)) : null,
    after: figures(after),
  };
}
