import { z } from 'zod';
import { parseIsoDate } from '../loan/calendar';
import { text } from './text';

/**
 * Dates people type or filter by: real calendar dates within years 1900–9999. PostgreSQL refuses year 0
 * and years past 9999 in its date input, and nothing a lender records lies outside this range.
 */
export const dateYearRange = { min: 1900, max: 9999 } as const;

const inRange = (year: number) => year >= dateYearRange.min && year <= dateYearRange.max;

export function isCivilDateInRange(value: string): boolean {
  const date = parseIsoDate(value);
  return date !== null && inRange(date.year);
}

/** 'YYYY-MM-DD', a real date in range; anything else reports `code`. */
export const civilDate = (code: string) => text({ error: code }).refine(isCivilDateInRange, { error: code });

/** An ISO 8601 instant with an offset, its year in range; anything else reports `code`. */
export const instant = (code: string) =>
  z.iso
    .datetime({ offset: true, error: code })
    .refine((value) => inRange(new Date(value).getUTCFullYear()), { error: code });
