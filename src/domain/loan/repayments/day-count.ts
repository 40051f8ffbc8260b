import { divRoundHalfUp } from '../../money';
import { addMonthsClamped, daysBetween, parseIsoDate } from '../calendar';
import { BP_PER_UNIT } from '../terms';

/**
 * Day count for part-periods: a loan month is the span between two of its due dates (the start date plus
 * k months, clamped to month end), and one day is 1/28 … 1/31 of that month's rate. A month of the loan
 * calendar is always 28–31 days long, so counting in 1/377,580ths of a month (the least common multiple
 * of 28, 29, 30 and 31) keeps every part-period exact: amounts are bigint numerators over
 * RATE_DENOMINATOR and are rounded once, half-up, where a centavo figure is needed.
 */
export const MONTH_UNITS = 377_580n;

/** centavos × basis points × month units: divide by this once to get centavos. */
export const RATE_DENOMINATOR = BigInt(BP_PER_UNIT) * MONTH_UNITS;

export function toCentavos(numerator: bigint): number {
  return Number(divRoundHalfUp(numerator, RATE_DENOMINATOR));
}

/** The i-th boundary of the loan calendar that starts on `startDate` (boundary k is instalment k's due date). */
export function loanMonthBoundary(startDate: string, index: number): string {
  return addMonthsClamped(startDate, index);
}

/** The index i of the loan month [boundary(i), boundary(i + 1)) that holds `date`. */
function loanMonthIndex(startDate: string, date: string): number {
  const start = parseIsoDate(startDate);
  const day = parseIsoDate(date);
  if (!start || !day) throw new Error(`Expected real dates, got ${startDate} and ${date}`);
  let index = (day.year - start.year) * 12 + (day.month - start.month);
  while (loanMonthBoundary(startDate, index) > date) index--;
  while (loanMonthBoundary(startDate, index + 1) <= date) index++;
  return index;
}

/**
 * Month units from `from` (inclusive) to `to` (exclusive) on the loan calendar: a whole loan month is
 * MONTH_UNITS whatever its length, a part of one is pro rata by days. Zero when `to` ≤ `from`.
 */
export function loanMonthUnits(startDate: string, from: string, to: string): bigint {
  if (to <= from) return 0n;
  let total = 0n;
  let index = loanMonthIndex(startDate, from);
  let cursor = from;
  while (cursor < to) {
    const monthStart = loanMonthBoundary(startDate, index);
    const monthEnd = loanMonthBoundary(startDate, index + 1);
    const segmentEnd = monthEnd < to ? monthEnd : to;
    const monthDays = BigInt(daysBetween(monthStart, monthEnd));
    if (MONTH_UNITS % monthDays !== 0n) throw new Error(`A loan month of ${monthDays} days`);
    total += (BigInt(daysBetween(cursor, segmentEnd)) * MONTH_UNITS) / monthDays;
    cursor = segmentEnd;
    index++;
  }
  return total;
}
