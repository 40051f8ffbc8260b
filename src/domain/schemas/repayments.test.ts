import { describe, expect, it } from 'vitest';
import { parsePesosToMinor, recordRepaymentSchema } from './repayments';

describe('parsePesosToMinor', () => {
  it.each([
    ['1000', 100_000],
    ['1,234.56', 123_456],
    ['0.5', 50],
    ['9455.96', 945_596],
    [1250.5, 125_050],
    [' 12.30 ', 1_230],
  ])('%j is %i centavos', (input, minor) => {
    expect(parsePesosToMinor(input)).toBe(minor);
  });

  it.each([['1.234'], ['-5'], ['1,23'], ['abc'], [''], ['1e3'], [0.1 + 0.2], [null], ['12,34.5']])(
    'refuses %j',
    (input) => {
      expect(parsePesosToMinor(input)).toBeNull();
    },
  );
});

describe('recordRepaymentSchema', () => {
  const valid = { amount: '100.25', receivedOn: '2026-11-20', channel: 'gcash', reference: ' GC-1 ' };
  it('takes pesos with centavos and trims the reference', () => {
    expect(recordRepaymentSchema.parse(valid)).toEqual({ ...valid, amount: 10_025, reference: 'GC-1' });
  });
  it('refuses a zero amount, an impossible date and an empty reference', () => {
    expect(recordRepaymentSchema.safeParse({ ...valid, amount: '0' }).success).toBe(false);
    expect(recordRepaymentSchema.safeParse({ ...valid, receivedOn: '2026-02-29' }).success).toBe(false);
    expect(recordRepaymentSchema.safeParse({ ...valid, reference: '   ' }).success).toBe(false);
  });
});
