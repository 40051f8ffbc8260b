import { describe, expect, it } from 'vitest';
import { writeCalendarDate, writeIsoDate } from './date-text';

describe('writeCalendarDate', () => {
  it('writes each language as the app does', () => {
    expect(writeCalendarDate('en', 2026, 11, 23)).toBe('Nov 23, 2026');
    expect(writeCalendarDate('zh', 2026, 1, 5)).toBe('2026年1月5日');
    expect(writeCalendarDate('km', 2026, 12, 31)).toBe('31 ធ្នូ 2026');
  });

  it('reads a stored civil date without moving it a day, and refuses anything else', () => {
    expect(writeIsoDate('en', '2025-01-01')).toBe('Jan 1, 2025');
    expect(writeIsoDate('km', '2025-03-01')).toBe('1 មីនា 2025');
    expect(writeIsoDate('en', '2025-1-1')).toBeNull();
  });
});
