import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { loanBalance } from './balance';
import { isRunning, loanStatuses } from './status';

const minor = fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER });
const status = fc.constantFrom(...loanStatuses);

describe('loan balance', () => {
  it('available = approved − withdrawn on a running loan', () => {
    expect(loanBalance({ status: 'approved', approvedMinor: 10_000_000, withdrawnMinor: 2_500_000 })).toEqual(
      {
        approvedMinor: 10_000_000,
        withdrawnMinor: 2_500_000,
        availableMinor: 7_500_000,
      },
    );
    expect(loanBalance({ status: 'on_hold', approvedMinor: 100, withdrawnMinor: 100 }).availableMinor).toBe(
      0,
    );
  });

  it('nothing is available unless the loan runs', () => {
    for (const s of ['pending', 'rejected', 'closed'] as const) {
      expect(loanBalance({ status: s, approvedMinor: 10_000, withdrawnMinor: 0 }).availableMinor).toBe(0);
    }
    expect(loanBalance({ status: 'pending', approvedMinor: null, withdrawnMinor: 0 }).approvedMinor).toBe(0);
  });

  it('refuses negative and fractional amounts instead of showing them', () => {
    for (const [approvedMinor, withdrawnMinor] of [
      [-1, 0],
      [0, -1],
      [1.5, 0],
      [0, 0.5],
      [Number.NaN, 0],
      [0, Number.POSITIVE_INFINITY],
    ] as const) {
      expect(() => loanBalance({ status: 'approved', approvedMinor, withdrawnMinor })).toThrow(RangeError);
    }
  });

  it('says which amount is wrong', () => {
    expect(() => loanBalance({ status: 'approved', approvedMinor: -1, withdrawnMinor: 0 })).toThrow(
      'approvedMinor must be a whole, non-negative number of minor units, not -1',
    );
    expect(() => loanBalance({ status: 'approved', approvedMinor: 0, withdrawnMinor: 0.5 })).toThrow(
      'withdrawnMinor must be a whole, non-negative number of minor units, not 0.5',
    );
  });

  it('is never negative, never above what was approved, and adds up while money remains', () => {
    fc.assert(
      fc.property(status, minor, minor, (s, approvedMinor, withdrawnMinor) => {
        const b = loanBalance({ status: s, approvedMinor, withdrawnMinor });
        expect(b.availableMinor).toBeGreaterThanOrEqual(0);
        expect(b.availableMinor).toBeLessThanOrEqual(approvedMinor);
        expect(Number.isSafeInteger(b.availableMinor)).toBe(true);
        if (!isRunning(s)) expect(b.availableMinor).toBe(0);
        else if (withdrawnMinor <= approvedMinor)
          expect(b.availableMinor + withdrawnMinor).toBe(approvedMinor);
        else expect(b.availableMinor).toBe(0);
      }),
    );
  });

  it('throws for any negative input', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
        minor,
        fc.boolean(),
        (negative, other, which) => {
          const input = which
            ? { status: 'approved' as const, approvedMinor: negative, withdrawnMinor: other }
            : { status: 'approved' as const, approvedMinor: other, withdrawnMinor: negative };
          expect(() => loanBalance(input)).toThrow(RangeError);
        },
      ),
    );
  });
});
