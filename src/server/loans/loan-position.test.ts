import { describe, expect, it } from 'vitest';
import { feesOnPaidOut } from './loan-position';

describe('feesOnPaidOut', () => {
  it('charges the signed fee terms on the principal actually paid out', () => {
    const disclosure = { fees: { flatMinor: 50_000, percentBp: 100, totalMinor: 150_000 } };
    // ₱40,000 of a ₱100,000 loan paid out: ₱500 flat + 1 % of ₱40,000.
    expect(feesOnPaidOut(disclosure, 4_000_000)).toBe(50_000 + 40_000);
  });
  it('is nothing before a payout, and nothing for a loan without fee terms', () => {
    expect(feesOnPaidOut({ fees: { flatMinor: 50_000, percentBp: 0 } }, 0)).toBe(0);
    expect(feesOnPaidOut({}, 1_000_000)).toBe(0);
    expect(feesOnPaidOut(null, 1_000_000)).toBe(0);
  });
});
