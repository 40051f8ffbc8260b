import { describe, expect, it } from 'vitest';
import { assertTransition, canTransition, isLoanStatus, type LoanStatus, loanStatuses } from './status';

describe('status transitions', () => {
  // Every pair SPEC §4 allows; all others are illegal.
  const allowed = new Set([
    'pending→approved',
    'pending→rejected',
    'approved→on_hold',
    'on_hold→approved',
    'approved→closed',
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
});
