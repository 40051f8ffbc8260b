import { describe, expect, it } from 'vitest';
import { MIN_APPLICATIONS_PER_NAME, namesRepeatEnough } from './name-search-route';

describe('namesRepeatEnough', () => {
  it('goes by the names from the threshold up, never on estimates that say nothing', () => {
    expect(namesRepeatEnough(1_000_000, 400)).toBe(true);
    expect(namesRepeatEnough(MIN_APPLICATIONS_PER_NAME * 1000, 1000)).toBe(true);
    expect(namesRepeatEnough(MIN_APPLICATIONS_PER_NAME * 1000 - 1, 1000)).toBe(false);
    expect(namesRepeatEnough(1_000_000, 999_998)).toBe(false);
    // Never analysed (-1), empty, or not a number.
    expect(namesRepeatEnough(-1, -1)).toBe(false);
    expect(namesRepeatEnough(1000, 0)).toBe(false);
    expect(namesRepeatEnough(0, 0)).toBe(false);
    expect(namesRepeatEnough(Number.NaN, 10)).toBe(false);
  });
});
