import { assertMinor } from '../../money';
import { effectiveAnnualRateOfFlows } from '../rates';
import { loanMonthUnits, MONTH_UNITS } from './day-count';
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
  /** Interest, the fees taken from the payouts, and late charges so far: all the loan costs. */
  totalCostMinor: number;
  /**
   * The effective annual rate of the actual cash flows (issue #31): each payout net of its fee on its day,
   * against the instalments on their due dates. Drawdowns and fees change it; late charges do not count.
   */
  effectiveAnnualRate: string;
}

export interface WithdrawalPreview {
  amountMinor: number;
  /** Taken from this payout (the loan's fee terms); the borrower receives `netMinor`. */
  feeMinor: number;
  netMinor: number;
  payoutOn: string;
  /** Null for the first withdrawal: there is no schedule yet. */
  before: PaymentPlanFigures | null;
  after: PaymentPlanFigures;
}

function figures(records: LoanRecords, position: LoanPosition): PaymentPlanFigures {
  const from = position.levelFromInstalment;
  const fromRow = from === null ? undefined : position.schedule[from - 1];
  const start = position.startDate as string;
  const at = (date: string) => Number(loanMonthUnits(start, start, date)) / Number(MONTH_UNITS);
  const flows = [
    ...records.disbursements
      .filter((d) => d.paidOn <= position.asOf)
      .map((d) => ({ atMonths: at(d.paidOn), amountMinor: -(d.amountMinor - (d.feeMinor ?? 0)) })),
    ...position.schedule.map((row) => ({ atMonths: at(row.dueDate), amountMinor: row.paymentMinor })),
  ];
  return {
    monthlyPaymentMinor: position.levelPaymentMinor,
    fromInstalment: from,
    fromDueDate: fromRow?.dueDate ?? null,
    totalRepayableMinor: position.schedule.reduce((sum, row) => sum + row.paymentMinor, 0),
    totalInterestMinor: position.totalInterestMinor,
    remainingToRepayMinor:
      position.schedule.reduce((sum, row) => sum + row.unpaidMinor, 0) + position.lateChargesDueMinor,
    totalCostMinor: position.totalCostMinor,
    effectiveAnnualRate: effectiveAnnualRateOfFlows(flows),
  };
}

/**
 * Re-disclosure before a withdrawal: the payment plan as it stands on the expected payout date, and as it
 * would be if `amountMinor` were paid out that day, `feeMinor` taken from it (and nothing else happened).
 * The withdrawal code can be bound to `after`.
 */
export function previewWithdrawal(
  records: LoanRecords,
  withdrawal: { amountMinor: number; feeMinor: number; payoutOn: string },
): WithdrawalPreview {
  assertMinor(withdrawal.amountMinor, 'amountMinor');
  if (withdrawal.amountMinor <= 0) throw new Error('A withdrawal must be positive');
  assertMinor(withdrawal.feeMinor, 'feeMinor');
  if (withdrawal.feeMinor < 0 || withdrawal.feeMinor >= withdrawal.amountMinor)
    throw new Error('A fee must be 0 ≤ fee < amount');
  const { payoutOn } = withdrawal;
  const hasPayout = records.disbursements.some((d) => d.paidOn <= payoutOn);
  const withThis: LoanRecords = {
    ...records,
    disbursements: [
      ...records.disbursements,
      { amountMinor: withdrawal.amountMinor, paidOn: payoutOn, feeMinor: withdrawal.feeMinor },
    ],
  };
  return {
    amountMinor: withdrawal.amountMinor,
    feeMinor: withdrawal.feeMinor,
    netMinor: withdrawal.amountMinor - withdrawal.feeMinor,
    payoutOn,
    before: hasPayout ? figures(records, deriveLoanPosition(records, payoutOn)) : null,
    after: figures(withThis, deriveLoanPosition(withThis, payoutOn)),
  };
}
