import type { DisbursementStatus } from './disbursement-status';
import { isRunning, type LoanStatus } from './status';

/**
 * Disbursements that take money from a loan: requested (on its way) and paid. A failed payout gives its
 * amount back. Balances are never stored; they are derived from these records (SPEC principle 4).
 */
export const withdrawingDisbursementStatuses = [
  'requested',
  'paid',
] as const satisfies readonly DisbursementStatus[];

export interface LoanBalance {
  approvedMinor: number;
  withdrawnMinor: number;
  /** What the borrower may still withdraw: approved − withdrawn while the loan runs, else nothing. */
  availableMinor: number;
}

function assertMinor(name: string, value: number) {
  if (!Number.isSafeInteger(value) || value < 0) {
    throw new RangeError(`${name} must be a whole, non-negative number of minor units, not ${value}`);
  }
}

/**
 * The one balance rule: available = approved − (requested + paid disbursements), for a running loan
 * (approved or on hold); a loan that is pending, rejected or closed has nothing available. Amounts are
 * centavos. A negative or fractional input is a bug upstream and throws instead of being shown. A loan that
 * has paid out more than its approved amount (the API never lowers an amount below what was withdrawn)
 * shows 0 available, never a negative figure.
 */
export function loanBalance(input: {
  status: LoanStatus;
  approvedMinor: number | null;
  withdrawnMinor: number;
}): LoanBalance {
  const approvedMinor = input.approvedMinor ?? 0;
  assertMinor('approvedMinor', approvedMinor);
  assertMinor('withdrawnMinor', input.withdrawnMinor);
  return {
    approvedMinor,
    withdrawnMinor: input.withdrawnMinor,
    availableMinor: isRunning(input.status) ? Math.max(0, approvedMinor - input.withdrawnMinor) : 0,
  };
}
