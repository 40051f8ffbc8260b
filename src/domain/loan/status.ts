/** One record through its life (SPEC §4). "In Processing" is shown from a disbursement, not a status. */
export const loanStatuses = ['pending', 'approved', 'rejected', 'on_hold', 'closed'] as const;
export type LoanStatus = (typeof loanStatuses)[number];

export const allowedTransitions: Readonly<Record<LoanStatus, readonly LoanStatus[]>> = {
  pending: ['approved', 'rejected'],
  approved: ['on_hold', 'closed'],
  on_hold: ['approved'],
  rejected: [],
  closed: [],
};

export function isLoanStatus(value: unknown): value is LoanStatus {
  return typeof value === 'string' && (loanStatuses as readonly string[]).includes(value);
}

export function canTransition(from: LoanStatus, to: LoanStatus): boolean {
  return allowedTransitions[from]?.includes(to) ?? false;
}

export function assertTransition(from: LoanStatus, to: LoanStatus): void {
  if (!canTransition(from, to)) throw new Error(`Illegal loan status change: ${from} → ${to}`);
}
