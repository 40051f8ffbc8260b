import { describe, expect, it } from 'vitest';
import { makeFormatters } from './format';

describe('wallet formatters', () => {
  it("shows an instant in the lender's configured time zone", () => {
    const instant = '2026-03-01T17:30:00.000Z';
    // 01:30 the next day in Manila (UTC+8), 00:30 in Phnom Penh (UTC+7).
    expect(makeFormatters('en-PH', 'Asia/Manila').dateTime(instant)).toMatch(/Mar 2, 2026.*1:30/);
    expect(makeFormatters('en-PH', 'Asia/Phnom_Penh').dateTime(instant)).toMatch(/Mar 2, 2026.*12:30/);
    expect(makeFormatters('en-PH', 'UTC').dateTime(instant)).toMatch(/Mar 1, 2026.*5:30/);
  });

  it('never moves a calendar date (a due date) by a time zone', () => {
    expect(makeFormatters('en-PH', 'Pacific/Kiritimati').date('2026-03-01')).toMatch(/Mar 1, 2026/);
  });
});
