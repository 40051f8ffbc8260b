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

/** Days since 1970-01-01 for a proleptic-Gregorian date (Howard Hinnant's days_from_civil). */
export function epochDay(isoDate: string): number {
  const date = parseIsoDate(isoDate);
  if (!date) throw new Error(`Expected a real 'YYYY-MM-DD' date, got ${isoDate}`);
  const year = date.month <= 2 ? date.year - 1 : date.year;
  const era = Math.floor(year / 400);
  const yearOfEra = year - era * 400;
  const dayOfYear = Math.floor((153 * (date.month + (date.month > 2 ? -3 : 9)) + 2) / 5) + date.day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The inverse of `epochDay`. */
export function fromEpochDay(days: number): string {
  if (!Number.isSafeInteger(days)) throw new Error(`Expected a whole number of days, got ${days}`);
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const shiftedMonth = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * shiftedMonth + 2) / 5) + 1;
  const month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return formatIsoDate({ year, month, day });
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return epochDay(to) - epochDay(from);
}

export function addDays(isoDate: string, days: number): string {
  return fromEpochDay(epochDay(isoDate) + days);
}
