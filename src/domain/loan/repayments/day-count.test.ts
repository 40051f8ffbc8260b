import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { addDays, addMonthsClamped } from '../calendar';
import { loanMonthUnits, MONTH_UNITS } from './day-count';

describe('loanMonthUnits', () => {
  it('a whole loan month is one month whatever its length; a part is pro rata by days', () => {
    expect(loanMonthUnits('2025-01-31', '2025-01-31', '2025-02-28')).toBe(MONTH_UNITS); // 28 days
    expect(loanMonthUnits('2025-01-31', '2025-02-28', '2025-03-31')).toBe(MONTH_UNITS); // 31 days
    expect(loanMonthUnits('2025-01-31', '2025-02-14', '2025-02-28')).toBe(MONTH_UNITS / 2n); // 14 of 28
    expect(loanMonthUnits('2025-01-31', '2025-03-30', '2025-04-02')).toBe(
      MONTH_UNITS / 31n + (2n * MONTH_UNITS) / 30n,
    );
    expect(loanMonthUnits('2025-01-31', '2025-03-01', '2025-03-01')).toBe(0n);
    expect(loanMonthUnits('2025-01-31', '2025-03-02', '2025-03-01')).toBe(0n);
  });

  it('adds up: k whole months are k × MONTH_UNITS and any split point gives the same total', () => {
    const start = fc.integer({ min: 0, max: 3000 }).map((d) => addDays('2024-01-01', d));
    fc.assert(
      fc.property(start, fc.integer({ min: 1, max: 30 }), fc.nat(), (startDate, months, cut) => {
        const end = addMonthsClamped(startDate, months);
        const middle = addDays(startDate, cut % 900);
        const whole = loanMonthUnits(startDate, startDate, end);
        expect(whole).toBe(BigInt(months) * MONTH_UNITS);
        if (middle <= end) {
          expect(loanMonthUnits(startDate, startDate, middle) + loanMonthUnits(startDate, middle, end)).toBe(
            whole,
          );
        }
      }),
    );
  });
});
