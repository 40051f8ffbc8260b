import { describe, expect, it } from 'vitest';
import {
  allowedTransitions,
  assertTransition,
  awaitsDecision,
  canTransition,
  canWithdraw,
  isLoanStatus,
  isOpen,
  isRunning,
  type LoanStatus,
  loanStatuses,
  wasApproved,
} from './status';

describe('status transitions', () => {
  // Every pair SPEC §4 allows; all others are illegal.
  const allowed = new Set([
    'pending→approved',
    'pending→rejected',
    'approved→on_hold',
    'on_hold→approved',
    'approved→closed',
    'on_hold→closed',
    // A reversed repayment reopens a paid-off loan (issue #10).
    'closed→approved',
  ]);

  it.each(loanStatuses.flatMap((from) => loanStatuses.map((to) => [from, to] as [LoanStatus, LoanStatus])))(
    '%s → %s',
    (from, to) => {
      const legal = allowed.has(`${from}→${to}`);
      expect(canTransition(from, to)).toBe(legal);
      if (legal) expect(() => assertTransition(from, to)).not.toThrow();
      else expect(() => assertTransition(from, to)).toThrow(Error);
    },
  );

  it('recognises statuses', () => {
    expect(isLoanStatus('on_hold')).toBe(true);
    expect(isLoanStatus('hold')).toBe(false);
    expect(isLoanStatus(undefined)).toBe(false);
  });

  it('a status read from outside (an unknown string) can change to nothing', () => {
    const unknown = 'archived' as LoanStatus;
    expect(canTransition(unknown, 'approved')).toBe(false);
    expect(() => assertTransition(unknown, 'approved')).toThrow(
      'Illegal loan status change: archived → approved',
    );
  });

  it('names both statuses when it refuses a change', () => {
    expect(() => assertTransition('rejected', 'approved')).toThrow(
      'Illegal loan status change: rejected → approved',
    );
  });
});

describe('status sets', () => {
  it('only a pending application awaits a decision: it alone can still become approved or rejected', () => {
    expect(loanStatuses.filter(awaitsDecision)).toEqual(['pending']);
    for (const status of loanStatuses) {
      expect(awaitsDecision(status)).toBe(
        canTransition(status, 'approved') && canTransition(status, 'rejected'),
      );
    }
  });
  it('a running loan is approved or on hold, nothing else', () => {
    expect(loanStatuses.filter(isRunning)).toEqual(['approved', 'on_hold']);
  });
  it('an open application is pending or running', () => {
    expect(loanStatuses.filter(isOpen)).toEqual(['pending', 'approved', 'on_hold']);
  });
  it('an approved loan stays one when held or closed', () => {
    expect(loanStatuses.filter(wasApproved)).toEqual(['approved', 'on_hold', 'closed']);
  });
  it('only an approved loan that is not on hold pays out', () => {
    expect(loanStatuses.filter(canWithdraw)).toEqual(['approved']);
  });
  it('every running status can reach another by a legal change; only a rejection is terminal', () => {
    for (const status of loanStatuses) {
      expect(allowedTransitions[status].length === 0).toBe(status === 'rejected');
    }
  });
  it('a closed loan only reopens, to repayment (a reversed repayment), and is not running', () => {
    expect(allowedTransitions.closed).toEqual(['approved']);
    expect(isRunning('closed')).toBe(false);
    expect(awaitsDecision('closed')).toBe(false);
  });
});
