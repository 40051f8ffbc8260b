import { describe, expect, it } from 'vitest';
import { civilDate, instant, isCivilDateInRange } from './dates';

describe('dates people type or filter by', () => {
  it.each([
    ['1900-01-01', true],
    ['2024-02-29', true],
    ['9999-12-31', true],
    ['0000-01-01', false],
    ['1899-12-31', false],
    ['10000-01-01', false],
    ['2026-02-29', false],
    ['2026-13-01', false],
    ['2026-1-1', false],
    ['-001-01-01', false],
  ])('%s in range: %s', (value, ok) => {
    expect(isCivilDateInRange(value)).toBe(ok);
    expect(civilDate('DATE_INVALID').safeParse(value).success).toBe(ok);
  });

  it('instants need an offset and a year in range', () => {
    const schema = instant('VALIDATION_FAILED');
    expect(schema.safeParse('2026-01-01T10:00:00+08:00').success).toBe(true);
    expect(schema.safeParse('2026-01-01T10:00:00').success).toBe(false);
    expect(schema.safeParse('0000-01-01T00:00:00Z').success).toBe(false);
    expect(schema.safeParse('9999-12-31T23:00:00-05:00').success).toBe(false);
  });
});
