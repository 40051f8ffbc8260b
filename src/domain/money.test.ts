import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addMinor,
  assertMinor,
  divRoundHalfUp,
  formatMoney,
  fromMinorToMajorString,
  sumMinor,
  toMinor,
} from './money';

describe('toMinor', () => {
  it('converts whole pesos to centavos', () => {
    expect(toMinor(10_000)).toBe(1_000_000);
    expect(toMinor(0)).toBe(0);
  });

  it('rejects fractions, non-finite and unsafe values', () => {
    for (const bad of [1.5, 0.1, Number.NaN, Number.POSITIVE_INFINITY, Number.MAX_SAFE_INTEGER]) {
      expect(() => toMinor(bad)).toThrow();
    }
  });

  it('says which check failed: a fraction of a peso, or a result too large for centavos', () => {
    expect(() => toMinor(1.5)).toThrow('Expected a whole number of major units, got 1.5');
    expect(() => toMinor(Number.MAX_SAFE_INTEGER)).toThrow(
      /^converted amount must be a safe integer number of minor units/,
    );
  });
});

describe('assertMinor', () => {
  it('accepts safe integers only', () => {
    expect(() => assertMinor(12)).not.toThrow();
    expect(() => assertMinor(-12)).not.toThrow();
    for (const bad of [0.5, Number.NaN, '12', 2 ** 53, null]) expect(() => assertMinor(bad)).toThrow();
  });

  it('names the value in its message, "amount" unless told', () => {
    expect(() => assertMinor(0.5)).toThrow('amount must be a safe integer number of minor units, got 0.5');
    expect(() => assertMinor(0.5, 'fee')).toThrow(/^fee must be/);
  });
});

describe('fromMinorToMajorString', () => {
  it('writes exactly two decimals', () => {
    expect(fromMinorToMajorString(945_596)).toBe('9455.96');
    expect(fromMinorToMajorString(5)).toBe('0.05');
    expect(fromMinorToMajorString(0)).toBe('0.00');
    expect(fromMinorToMajorString(-1_050)).toBe('-10.50');
    expect(fromMinorToMajorString(Number.MAX_SAFE_INTEGER)).toBe('90071992547409.91');
  });

  it('refuses a fraction of a centavo instead of printing it', () => {
    for (const bad of [0.5, 100.25, Number.NaN, 2 ** 53]) {
      expect(() => fromMinorToMajorString(bad)).toThrow(/must be a safe integer/);
    }
  });

  it('round-trips through Math.round(major × 100) for ordinary amounts', () => {
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (minor) => {
        expect(Math.round(Number(fromMinorToMajorString(minor)) * 100)).toBe(minor);
      }),
    );
  });
});

describe('formatMoney', () => {
  it('uses ₱ and the locale grouping', () => {
    expect(formatMoney(11_347_152, { locale: 'en' })).toBe('₱113,471.52');
    expect(formatMoney(11_347_152, { locale: 'zh' })).toBe('₱113,471.52');
    expect(formatMoney(11_347_152, { locale: 'km' })).toBe('113,471.52₱');
  });

  it('can drop zero cents for message texts, but never real cents', () => {
    expect(formatMoney(1_000_000, { locale: 'en', omitZeroCents: true })).toBe('₱10,000');
    expect(formatMoney(1_000_050, { locale: 'en', omitZeroCents: true })).toBe('₱10,000.50');
    expect(formatMoney(1_000_000, { locale: 'en' })).toBe('₱10,000.00');
  });

  it('formats huge amounts without float rounding', () => {
    expect(formatMoney(Number.MAX_SAFE_INTEGER, { locale: 'en' })).toBe('₱90,071,992,547,409.91');
  });

  it('honours another currency', () => {
    expect(formatMoney(123_456, { locale: 'en', currency: 'USD' })).toBe('$1,234.56');
  });
});

describe('addMinor / sumMinor', () => {
  it('adds exactly', () => {
    expect(addMinor(10, -3)).toBe(7);
    expect(sumMinor([945_596, 945_596, 1])).toBe(1_891_193);
    expect(sumMinor([])).toBe(0);
  });

  it('throws instead of overflowing', () => {
    expect(() => addMinor(Number.MAX_SAFE_INTEGER, 1)).toThrow(/overflow/);
    expect(() => sumMinor([Number.MAX_SAFE_INTEGER - 1, 1, 1])).toThrow(/overflow/);
    expect(() => addMinor(0.5, 1)).toThrow();
  });

  it('checks each operand, even when the sum would look safe', () => {
    // 2^53 is not a safe integer but 2^53 − 1 is: only the operand checks catch these.
    expect(() => addMinor(2 ** 53, -1)).toThrow(/must be a safe integer/);
    expect(() => addMinor(-1, 2 ** 53)).toThrow(/must be a safe integer/);
    expect(() => addMinor(0.5, 0.5)).toThrow(/must be a safe integer/);
  });
});

describe('divRoundHalfUp', () => {
  it('rounds halves up and the rest to nearest', () => {
    expect(divRoundHalfUp(5n, 2n)).toBe(3n);
    expect(divRoundHalfUp(7n, 3n)).toBe(2n);
    expect(divRoundHalfUp(8n, 3n)).toBe(3n);
    expect(divRoundHalfUp(0n, 3n)).toBe(0n);
    expect(() => divRoundHalfUp(-1n, 3n)).toThrow();
  });

  it('refuses a zero or negative denominator with its own message', () => {
    const refusal = 'divRoundHalfUp expects numerator ≥ 0 and denominator > 0';
    expect(() => divRoundHalfUp(1n, 0n)).toThrow(refusal);
    expect(() => divRoundHalfUp(1n, -2n)).toThrow(refusal);
    expect(() => divRoundHalfUp(-1n, 3n)).toThrow(refusal);
  });

  it('is within half a unit of the true quotient', () => {
    fc.assert(
      fc.property(
        fc.bigInt({ min: 0n, max: 10n ** 30n }),
        fc.bigInt({ min: 1n, max: 10n ** 12n }),
        (n, d) => {
          const q = divRoundHalfUp(n, d);
          // |q − n/d| ≤ 1/2, with a tie going up: −d < 2(qd − n) ≤ d
          const twice = 2n * (q * d - n);
          expect(twice > -d && twice <= d).toBe(true);
        },
      ),
    );
  });
});
