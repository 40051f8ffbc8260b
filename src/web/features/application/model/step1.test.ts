import { describe, expect, it } from 'vitest';
import { todayIn } from './step1';

describe('todayIn', () => {
  it("is the calendar date in the lender's time zone, each zone on its own", () => {
    // 17:30 UTC on the 26th is already the 27th in Manila (UTC+8) and still the 26th in New York.
    const instant = new Date('2026-11-26T17:30:00Z');
    expect(todayIn('Asia/Manila', instant)).toBe('2026-11-27');
    expect(todayIn('UTC', instant)).toBe('2026-11-26');
    expect(todayIn('America/New_York', instant)).toBe('2026-11-26');
    expect(todayIn('Asia/Manila', new Date('2026-11-26T15:59:59Z'))).toBe('2026-11-26');
  });
});
