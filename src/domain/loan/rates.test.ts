import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  aprString,
  bpToDecimalString,
  effectiveAnnualRateFromCashFlows,
  effectiveAnnualRateString,
  monthlyIrr,
  monthlyRateString,
} from './rates';
import { buildSchedule } from './schedule';

describe('exact rate strings', () => {
  it('writes basis points as trimmed decimals', () => {
    expect(monthlyRateString(200)).toBe('0.02');
    expect(aprString(200)).toBe('0.24');
    expect(bpToDecimalString(0)).toBe('0');
    expect(bpToDecimalString(5)).toBe('0.0005');
    expect(bpToDecimalString(175)).toBe('0.0175');
    expect(bpToDecimalString(10_000)).toBe('1');
    expect(bpToDecimalString(12_345)).toBe('1.2345');
    expect(() => bpToDecimalString(1.5)).toThrow();
    expect(() => bpToDecimalString(-1)).toThrow();
    expect(() => bpToDecimalString(1.5)).toThrow('Expected whole non-negative basis points, got 1.5');
  });

  it('is exact: the string times 10,000 gives the basis points back', () => {
    fc.assert(
      fc.property(fc.nat(1_000_000), (bp) => {
        const [whole = '', fraction = ''] = bpToDecimalString(bp).split('.');
        expect(Number(whole + fraction.padEnd(4, '0'))).toBe(bp);
      }),
    );
  });
});

describe('effectiveAnnualRateString', () => {
  it('is (1 + r)^12 − 1 rounded half-up to 6 decimals', () => {
    expect(effectiveAnnualRateString(200)).toBe('0.268242'); // 1.02^12 − 1 = 0.2682417945…
    expect(effectiveAnnualRateString(100)).toBe('0.126825'); // 1.01^12 − 1 = 0.1268250301…
    expect(effectiveAnnualRateString(0)).toBe('0');
    expect(() => effectiveAnnualRateString(-1)).toThrow('Expected whole non-negative basis points, got -1');
  });

  it('agrees with the float formula to 6 decimals', () => {
    fc.assert(
      fc.property(fc.nat(2000), (bp) => {
        const float = (1 + bp / 10_000) ** 12 - 1;
        expect(Math.abs(Number(effectiveAnnualRateString(bp)) - float)).toBeLessThanOrEqual(5e-7 + 1e-12);
      }),
    );
  });
});

describe('monthlyIrr / effectiveAnnualRateFromCashFlows', () => {
  const payments = Array<number>(12).fill(945_596); // ₱100,000 over 12 months at 2%

  it('recovers the contract rate when nothing is deducted', () => {
    expect(monthlyIrr(10_000_000, payments)).toBeCloseTo(0.02, 7);
    expect(effectiveAnnualRateFromCashFlows(10_000_000, payments)).toBe('0.268242');
  });

  it('includes fees taken at disbursement (checked with a 50-digit decimal solve)', () => {
    expect(effectiveAnnualRateFromCashFlows(9_900_000, payments)).toBe('0.292934'); // 1% fee
    expect(effectiveAnnualRateFromCashFlows(9_850_000, payments)).toBe('0.305584'); // ₱500 + 1%
  });

  it('finds the rate that discounts the payments back to the advance', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 100_000, max: 500_000_000 }),
        fc.integer({ min: 1, max: 60 }),
        fc.integer({ min: 0, max: 1000 }),
        fc.integer({ min: 0, max: 2000 }),
        (amount, n, bp, feeBp) => {
          const startDate = '2025-01-01';
          const schedule = buildSchedule({
            amountMinor: amount,
            termMonths: n,
            monthlyRateBp: bp,
            startDate,
          }).map((row) => row.paymentMinor);
          const advance = amount - Math.round((amount * feeBp) / 10_000);
          const i = monthlyIrr(advance, schedule);
          const presentValue = schedule.reduce((sum, p, k) => sum + p / (1 + i) ** (k + 1), 0);
          expect(Math.abs(presentValue - advance) / advance).toBeLessThan(1e-9);
          // More deducted up front means a higher effective rate.
          if (feeBp > 0) expect(i).toBeGreaterThan(monthlyIrr(amount, schedule));
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses cash flows without a non-negative rate', () => {
    expect(() => monthlyIrr(0, payments)).toThrow();
    expect(() => monthlyIrr(20_000_000, payments)).toThrow();
  });

  it('says why it refuses', () => {
    for (const advance of [0, -1, Number.NaN]) {
      expect(() => monthlyIrr(advance, payments)).toThrow('The amount advanced must be positive');
    }
    expect(() => monthlyIrr(20_000_000, payments)).toThrow('Repayments are less than the advance');
    expect(() => monthlyIrr(1, [1e9])).toThrow('Internal rate of return out of range');
  });

  it('finds rates above 100 % a month by widening its search', () => {
    expect(monthlyIrr(100, [300])).toBeCloseTo(2, 9);
    expect(monthlyIrr(100, [100])).toBeCloseTo(0, 9);
  });
});
