import { statusMachine } from '../status-machine';

/** One record through its life (SPEC §4). "In Processing" is shown from a disbursement, not a status. */
export const loanStatuses = ['pending', 'approved', 'rejected', 'on_hold', 'closed'] as const;
export type LoanStatus = (typeof loanStatuses)[number];

/**
 * What moves a loan from one status to another (SPEC §4, issue #37): each event, the statuses it may start
 * from, where it leads and who makes it. Staff decide, hold and release; only the ledger closes a loan
 * (nothing owed, whether or not withdrawals were on hold) or reopens one (a reversed repayment makes it owe
 * again), so no staff action can bring a closed or rejected loan back.
 */
const loanMachine = statusMachine<
  LoanStatus,
  'approve' | 'reject' | 'hold' | 'release' | 'pay_off' | 'reopen'
>(
  {
    approve: { from: ['pending'], to: 'approved', by: 'staff' },
    reject: { from: ['pending'], to: 'rejected', by: 'staff' },
    hold: { from: ['approved'], to: 'on_hold', by: 'staff' },
    release: { from: ['on_hold'], to: 'approved', by: 'staff' },
    pay_off: { from: ['approved', 'on_hold'], to: 'closed', by: 'ledger' },
    reopen: { from: ['closed'], to: 'approved', by: 'ledger' },
  },
  'STATUS_CHANGE_REFUSED',
);
export const loanEvents = loanMachine.events;
export const loanEventNames = loanMachine.eventNames;
/** Whether `event` may happen to a loan in status `from`. */
export const canApply = loanMachine.canApply;
/** The statuses `event` may start from (for a conditional update's WHERE). */
export const statusesBefore = loanMachine.statusesBefore;
/**
 * The status after `event`, or a refusal (409 STATUS_CHANGE_REFUSED, never a 500): callers check their own
 * reasons first, so reaching the refusal means the loan changed under them or a caller is wrong.
 */
export const statusAfter = loanMachine.statusAfter;

/** Every (from → to) some event makes, derived from the events. */
export const allowedTransitions: Readonly<Record<LoanStatus, readonly LoanStatus[]>> = Object.fromEntries(
  loanStatuses.map((from) => [
    from,
    [
      ...new Set(
        loanEventNames.filter((event) => canApply(event, from)).map((event) => loanEvents[event].to),
      ),
    ],
  ]),
) as Record<LoanStatus, LoanStatus[]>;

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
