import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonthsClamped,
  daysBetween,
  daysInMonth,
  epochDay,
  formatIsoDate,
  fromEpochDay,
  parseIsoDate,
} from './calendar';

describe('parseIsoDate', () => {
  it('accepts real dates only', () => {
    expect(parseIsoDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
    for (const bad of [
      '2023-02-29',
      '1900-02-29',
      '2024-13-01',
      '2024-00-10',
      '2024-04-31',
      '2024-1-01',
      '',
    ]) {
      expect(parseIsoDate(bad)).toBeNull();
    }
    expect(parseIsoDate('2000-02-29')).not.toBeNull();
  });
});

describe('daysInMonth', () => {
  it('matches the Gregorian calendar (checked against Date.UTC)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1600, max: 2600 }), fc.integer({ min: 1, max: 12 }), (year, month) => {
        expect(daysInMonth(year, month)).toBe(new Date(Date.UTC(year, month, 0)).getUTCDate());
      }),
      { numRuns: 2000 },
    );
  });
});

describe('addMonthsClamped', () => {
  it('keeps the day of month, clamped to month end, counted from the start', () => {
    expect(addMonthsClamped('2025-01-15', 1)).toBe('2025-02-15');
    expect(addMonthsClamped('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonthsClamped('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonthsClamped('2025-01-31', 2)).toBe('2025-03-31');
    expect(addMonthsClamped('2025-01-31', 3)).toBe('2025-04-30');
    expect(addMonthsClamped('2025-11-30', 3)).toBe('2026-02-28');
    expect(addMonthsClamped('2025-12-31', 12)).toBe('2026-12-31');
    expect(addMonthsClamped('2025-03-31', -1)).toBe('2025-02-28');
  });

  it('rejects bad input', () => {
    expect(() => addMonthsClamped('2025-02-30', 1)).toThrow();
    expect(() => addMonthsClamped('2025-02-01', 1.5)).toThrow();
  });

  it('always lands on a real date, in the right month, never past the start day', () => {
    const date = fc
      .record({
        year: fc.integer({ min: 1970, max: 2200 }),
        month: fc.integer({ min: 1, max: 12 }),
        day: fc.integer({ min: 1, max: 31 }),
      })
      .filter(({ year, month, day }) => day <= daysInMonth(year, month));
    fc.assert(
      fc.property(date, fc.integer({ min: 0, max: 600 }), (start, months) => {
        const result = parseIsoDate(addMonthsClamped(formatIsoDate(start), months));
        expect(result).not.toBeNull();
        const { year, month, day } = result!;
        expect(year * 12 + month - (start.year * 12 + start.month)).toBe(months);
        expect(day).toBe(Math.min(start.day, daysInMonth(year, month)));
      }),
    );
  });
});

describe('epochDay / fromEpochDay / daysBetween / addDays', () => {
  it('counts days like Date.UTC, across leap years and centuries', () => {
    expect(epochDay('1970-01-01')).toBe(0);
    expect(daysBetween('2024-02-28', '2024-03-01')).toBe(2);
    expect(daysBetween('2025-02-28', '2025-03-01')).toBe(1);
    expect(daysBetween('2025-03-01', '2025-02-28')).toBe(-1);
    expect(addDays('2025-12-30', 3)).toBe('2026-01-02');
    expect(addDays('2000-03-01', -1)).toBe('2000-02-29');
    expect(addDays('1900-03-01', -1)).toBe('1900-02-28');
  });

  it('round-trips and matches Date.UTC for any date 1600–2600', () => {
    fc.assert(
      fc.property(fc.integer({ min: -135_000, max: 230_000 }), (days) => {
        const iso = fromEpochDay(days);
        expect(epochDay(iso)).toBe(days);
        expect(iso).toBe(new Date(days * 86_400_000).toISOString().slice(0, 10));
      }),
      { numRuns: 2000 },
    );
  });
});
