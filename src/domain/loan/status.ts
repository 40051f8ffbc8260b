/** One record through its life (SPEC §4). "In Processing" is shown from a disbursement, not a status. */
export const loanStatuses = ['pending', 'approved', 'rejected', 'on_hold', 'closed'] as const;
export type LoanStatus = (typeof loanStatuses)[number];

export const allowedTransitions: Readonly<Record<LoanStatus, readonly LoanStatus[]>> = {
  pending: ['approved', 'rejected'],
  approved: ['on_hold', 'closed'],
  // Paying everything off closes a loan whether or not withdrawals were on hold.
  on_hold: ['approved', 'closed'],
  rejected: [],
  // Only a reversed repayment reopens a paid-off loan: it owes money again and returns to repayment.
  closed: ['approved'],
};

/** An application still waiting for a decision (approve or reject); its terms may still be edited. */
export const awaitingDecisionStatuses = ['pending'] as const satisfies readonly LoanStatus[];
/** A loan that is being serviced: approved, or approved and on hold. Servicing and payouts need one. */
export const runningStatuses = ['approved', 'on_hold'] as const satisfies readonly LoanStatus[];
/** An application that blocks a new one: still being decided, or a running loan. */
export const openStatuses = ['pending', ...runningStatuses] as const satisfies readonly LoanStatus[];
/** Every status a loan can have once it was approved (it has an approved amount and a history of money). */
export const approvedStatuses = [...runningStatuses, 'closed'] as const satisfies readonly LoanStatus[];

export function isLoanStatus(value: unknown): value is LoanStatus {
  // Stryker disable next-line ConditionalExpression: includes() is already false for a non-string; the typeof narrows the type
  return typeof value === 'string' && (loanStatuses as readonly string[]).includes(value);
}

export function awaitsDecision(status: LoanStatus): boolean {
  return (awaitingDecisionStatuses as readonly LoanStatus[]).includes(status);
}

export function isRunning(status: LoanStatus): status is (typeof runningStatuses)[number] {
  return (runningStatuses as readonly LoanStatus[]).includes(status);
}

export function isOpen(status: LoanStatus): boolean {
  return (openStatuses as readonly LoanStatus[]).includes(status);
}

export function wasApproved(status: LoanStatus): boolean {
  return (approvedStatuses as readonly LoanStatus[]).includes(status);
}

/** Money may leave only while the loan is approved and not on hold. */
export function canWithdraw(status: LoanStatus): boolean {
  return status === 'approved';
}

export function canTransition(from: LoanStatus, to: LoanStatus): boolean {
  return allowedTransitions[from]?.includes(to) ?? false;
}

export function assertTransition(from: LoanStatus, to: LoanStatus): void {
  if (!canTransition(from, to)) throw new Error(`Illegal loan status change: ${from} → ${to}`);
}
