import { describe, expect, it } from 'vitest';
import { isoCivil, writeCalendarDate, writeIsoDate, zonedParts } from './date-text';

describe('writeCalendarDate', () => {
  it('writes each language as the app does', () => {
    expect(writeCalendarDate('en', 2026, 11, 23)).toBe('Nov 23, 2026');
    expect(writeCalendarDate('zh', 2026, 1, 5)).toBe('2026年1月5日');
    expect(writeCalendarDate('km', 2026, 12, 31)).toBe('31 ធ្នូ 2026');
    expect(writeCalendarDate('fil', 2026, 11, 23)).toBe('Nob 23, 2026');
  });

  it('writes Filipino as Intl does for fil-PH where the data is there (Node), for every month', () => {
    const intl = new Intl.DateTimeFormat('fil-PH', {
      timeZone: 'UTC',
      year: 'numeric',
      month: 'short',
      day: 'numeric',
    });
    for (let month = 1; month <= 12; month++) {
      expect(writeCalendarDate('fil', 2026, month, 9)).toBe(
        intl.format(new Date(Date.UTC(2026, month - 1, 9))),
      );
    }
  });

  it('reads a stored civil date without moving it a day, and refuses anything else', () => {
    expect(writeIsoDate('en', '2025-01-01')).toBe('Jan 1, 2025');
    expect(writeIsoDate('km', '2025-03-01')).toBe('1 មីនា 2025');
    expect(writeIsoDate('en', '2025-1-1')).toBeNull();
  });
});

describe('an instant in a time zone', () => {
  it('reads the civil date and time where the lender is, midnight as 00, seconds kept', () => {
    // 16:00:05 UTC is midnight and five seconds the next day in Manila (UTC+8).
    const parts = zonedParts(new Date('2026-11-27T16:00:05Z'), 'Asia/Manila');
    expect(parts).toEqual({ year: 2026, month: 11, day: 28, hour: 0, minute: 0, second: 5 });
    expect(isoCivil(parts)).toEqual({ date: '2026-11-28', time: '00:00', timeWithSeconds: '00:00:05' });
    expect(isoCivil(zonedParts(new Date('2026-11-27T16:00:05Z'), 'UTC')).date).toBe('2026-11-27');
  });
});
