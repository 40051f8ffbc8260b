import { describe, expect, it } from 'vitest';
import { AppError } from '../errors';
import {
  allowedTransitions,
  awaitsDecision,
  canApply,
  canTransition,
  canWithdraw,
  isLoanStatus,
  isOpen,
  isRunning,
  type LoanStatus,
  loanEventNames,
  loanEvents,
  loanStatuses,
  statusAfter,
  statusesBefore,
  wasApproved,
} from './status';

describe('status transitions', () => {
  // Every (event, from → to) SPEC §4 allows, and who makes it; every other triple is refused. Widening the
  // table (say, a release that reopens a closed loan) fails here.
  const allowed = new Set([
    'approve: pending→approved (staff)',
    'reject: pending→rejected (staff)',
    'hold: approved→on_hold (staff)',
    'release: on_hold→approved (staff)',
    'pay_off: approved→closed (ledger)',
    'pay_off: on_hold→closed (ledger)',
    // A reversed repayment reopens a paid-off loan (issue #10).
    'reopen: closed→approved (ledger)',
  ]);
  const triples = loanEventNames.flatMap((event) =>
    loanStatuses.flatMap((from) => loanStatuses.map((to) => [event, from, to] as const)),
  );

  it.each(triples)('%s: %s → %s', (event, from, to) => {
    const legal = allowed.has(`${event}: ${from}→${to} (${loanEvents[event].by})`);
    expect(canApply(event, from) && loanEvents[event].to === to).toBe(legal);
    if (canApply(event, from)) expect(statusAfter(event, from)).toBe(loanEvents[event].to);
    else expect(() => statusAfter(event, from)).toThrow(AppError);
  });

  it('derives the plain (from → to) pairs from the events', () => {
    const pairs = loanStatuses.flatMap((from) =>
      loanStatuses.filter((to) => canTransition(from, to)).map((to) => `${from}→${to}`),
    );
    expect(pairs.sort()).toEqual(
      [...allowed]
        .map((triple) => triple.replace(/^\w+: | \(\w+\)$/g, ''))
        .filter((p, i, all) => all.indexOf(p) === i)
        .sort(),
    );
  });

  it('recognises statuses', () => {
    expect(isLoanStatus('on_hold')).toBe(true);
    expect(isLoanStatus('hold')).toBe(false);
    expect(isLoanStatus(undefined)).toBe(false);
  });

  it('a status read from outside (an unknown string) can change to nothing', () => {
    const unknown = 'archived' as LoanStatus;
    expect(canTransition(unknown, 'approved')).toBe(false);
    for (const event of loanEventNames) expect(canApply(event, unknown)).toBe(false);
  });

  it('refuses a move with a 409 code, never a plain error (a 500)', () => {
    try {
      statusAfter('release', 'closed');
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(AppError);
      expect((error as AppError).code).toBe('STATUS_CHANGE_REFUSED');
    }
  });

  it('states the statuses each event starts from', () => {
    expect(statusesBefore('approve')).toEqual(['pending']);
    expect(statusesBefore('pay_off')).toEqual(['approved', 'on_hold']);
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
