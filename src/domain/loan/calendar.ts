/**
 * Calendar dates as ISO 'YYYY-MM-DD' strings with pure proleptic-Gregorian arithmetic: no Date objects,
 * so no time zone can shift a due date by a day.
 */

const isoDatePattern = /^(\d{4})-(\d{2})-(\d{2})$/;

export interface CalendarDate {
  year: number;
  month: number; // 1–12
  day: number;
}

export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

export function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** Strict: a real date in 'YYYY-MM-DD' form, else null. */
export function parseIsoDate(text: string): CalendarDate | null {
  const match = isoDatePattern.exec(text);
  if (!match) return null;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return null;
  return { year, month, day };
}

export function formatIsoDate({ year, month, day }: CalendarDate): string {
  const pad = (n: number, width: number) => String(n).padStart(width, '0');
  return `${pad(year, 4)}-${pad(month, 2)}-${pad(day, 2)}`;
}

/**
 * The same day-of-month `months` later, clamped to the month's last day (Jan 31 + 1 → Feb 28/29). Always
 * counted from the original date, so Jan 31 + 2 is Mar 31, not Mar 28.
 */
export function addMonthsClamped(isoDate: string, months: number): string {
  const date = parseIsoDate(isoDate);
  if (!date) throw new Error(`Expected a real 'YYYY-MM-DD' date, got ${isoDate}`);
  if (!Number.isSafeInteger(months)) throw new Error(`Expected a whole number of months, got ${months}`);
  const monthIndex = date.year * 12 + (date.month - 1) + months;
  const year = Math.floor(monthIndex / 12);
  const month = monthIndex - year * 12 + 1;
  return formatIsoDate({ year, month, day: Math.min(date.day, daysInMonth(year, month)) });
}
