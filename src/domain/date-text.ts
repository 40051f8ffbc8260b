import { intlLocales, type Language } from './languages';

/**
 * How each of the app's languages writes a calendar date: the one rule the web's formatters and the
 * server's documents (the statement of account) share. English uses Intl (its data is in every browser and
 * in Node); Chinese, Khmer and Filipino are written out here, because browsers without their data (Debian's
 * Chromium) print "2026 M11 23" for km-KH.
 */

/** Filipino short month names (CLDR `fil`, as Node's Intl writes fil-PH: "Nob 23, 2026"). */
const filipinoMonths = [
  'Ene',
  'Peb',
  'Mar',
  'Abr',
  'May',
  'Hun',
  'Hul',
  'Ago',
  'Set',
  'Okt',
  'Nob',
  'Dis',
] as const;

/** Khmer month names (CLDR, as in dayjs's `km` locale). */
const khmerMonths = [
  'មករា',
  'កុម្ភៈ',
  'មីនា',
  'មេសា',
  'ឧសភា',
  'មិថុនា',
  'កក្កដា',
  'សីហា',
  'កញ្ញា',
  'តុលា',
  'វិច្ឆិកា',
  'ធ្នូ',
] as const;

/** Built on first use: a page's first Intl.DateTimeFormat costs a phone ~0.1 s, and most pages show no date. */
let englishDate: Intl.DateTimeFormat | undefined;

/**
 * A calendar date (year, month 1–12, day) as the language writes it: "Nov 23, 2026", "2026年11月23日",
 * "23 វិច្ឆិកា 2026", "Nob 23, 2026".
 */
export function writeCalendarDate(language: Language, year: number, month: number, day: number): string {
  if (language === 'zh') return `${year}年${month}月${day}日`;
  if (language === 'km') return `${day} ${khmerMonths[month - 1]} ${year}`;
  if (language === 'fil') return `${filipinoMonths[month - 1]} ${day}, ${year}`;
  englishDate ??= new Intl.DateTimeFormat(intlLocales.en, {
    timeZone: 'UTC',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
  });
  return englishDate.format(new Date(Date.UTC(year, month - 1, day)));
}

/** A stored civil date 'YYYY-MM-DD' exactly as stored (no time zone can move it a day); null if malformed. */
export function writeIsoDate(language: Language, isoDate: string): string | null {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
  return match ? writeCalendarDate(language, Number(match[1]), Number(match[2]), Number(match[3])) : null;
}

// Building an Intl.DateTimeFormat costs far more than formatting with one (a loan's schedule formats a date
// per payout and repayment): one formatter per time zone, made on first use.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const hourFormats = new Map<string, Intl.DateTimeFormat>();

function formatter(
  cache: Map<string, Intl.DateTimeFormat>,
  timeZone: string,
  make: () => Intl.DateTimeFormat,
) {
  let format = cache.get(timeZone);
  if (!format) {
    format = make();
    cache.set(timeZone, format);
  }
  return format;
}

/** Today's calendar date (YYYY-MM-DD) in the configured time zone, e.g. for a loan's schedule start. */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  // en-CA formats as YYYY-MM-DD.
  return formatter(
    dateFormats,
    timeZone,
    () => new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }),
  ).format(now);
}

/** The hour (0–23) of `now` in the configured time zone, e.g. to keep messages out of the night. */
export function hourIn(timeZone: string, now: Date = new Date()): number {
  const hour = formatter(
    hourFormats,
    timeZone,
    () => new Intl.DateTimeFormat('en-GB', { timeZone, hour: '2-digit', hourCycle: 'h23' }),
  ).format(now);
  return Number(hour);
}

/** The civil fields of an instant in a time zone. */
export interface ZonedParts {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

const zonedFormats = new Map<string, Intl.DateTimeFormat>();

/**
 * The one reader of an instant's civil date and time in a time zone (issue #37): the screens' writers, the
 * loan documents' signing time and the audit CSV's moments all start from it. 'en-US' with numeric fields is
 * in every browser's and Node's Intl data, whatever languages they ship.
 */
export function zonedParts(instant: Date, timeZone: string): ZonedParts {
  const format = formatter(
    zonedFormats,
    timeZone,
    () =>
      new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: 'numeric',
        day: 'numeric',
        hour: 'numeric',
        minute: 'numeric',
        second: 'numeric',
        hourCycle: 'h23',
      }),
  );
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(instant))
    if (part.type !== 'literal') parts[part.type] = Number(part.value);
  return {
    year: parts.year ?? 0,
    month: parts.month ?? 1,
    day: parts.day ?? 1,
    // Some engines write midnight as 24 even with h23.
    hour: (parts.hour ?? 0) % 24,
    minute: parts.minute ?? 0,
    second: parts.second ?? 0,
  };
}

const pad2 = (value: number) => String(value).padStart(2, '0');

/** 'YYYY-MM-DD' and 'HH:MM' (and ':SS') of civil fields: sortable, the same in every language. */
export function isoCivil(parts: ZonedParts): { date: string; time: string; timeWithSeconds: string } {
  const date = `${parts.year}-${pad2(parts.month)}-${pad2(parts.day)}`;
  const time = `${pad2(parts.hour)}:${pad2(parts.minute)}`;
  return { date, time, timeWithSeconds: `${time}:${pad2(parts.second)}` };
}
