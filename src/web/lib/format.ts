import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { todayIn, writeCalendarDate, type ZonedParts, zonedParts } from '../../domain/date-text';
import { intlLocales } from '../../domain/languages';
import { formatMoney } from '../../domain/money';
import { percentFormat } from '../../domain/percent-text';
import { timeZonePlaceName } from '../../domain/time-zone-name';
import { currentLanguage, type Language } from './i18n';
import { useTimeZone } from './settings';

export function intlLocale(language: Language = currentLanguage()): string {
  return intlLocales[language];
}

export type Missing = null | undefined | '';

export function isMissing(value: unknown): value is Missing {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

let amountInputFormat: Intl.NumberFormat | undefined;

/** Whole pesos as typed in an amount field: ASCII digits with comma grouping in every language. */
export function amountInputText(pesos: number): string {
  amountInputFormat ??= new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });
  return amountInputFormat.format(pesos);
}

type DateParts = ZonedParts;

const two = (value: number) => String(value).padStart(2, '0');

/**
 * How each language writes a date and a time. English uses Intl (its data is in every browser); Chinese,
 * Khmer and Filipino are written out here so they are right whatever the browser's Intl data: Chinese and
 * Khmer with the 24-hour clock, Filipino with the 12-hour clock and AM/PM as in the Philippines.
 */
function dateWriter(language: Language, timeZone: string) {
  if (language === 'en') {
    const locale = intlLocales.en;
    const dateParts = { year: 'numeric', month: 'short', day: 'numeric' } as const;
    const timeParts = { hour: 'numeric', minute: '2-digit' } as const;
    const date = new Intl.DateTimeFormat(locale, { timeZone, ...dateParts });
    const time = new Intl.DateTimeFormat(locale, { timeZone, ...timeParts });
    const dateTime = new Intl.DateTimeFormat(locale, { timeZone, ...dateParts, ...timeParts });
    return {
      date: (value: Date) => date.format(value),
      time: (value: Date) => time.format(value),
      dateTime: (value: Date) => dateTime.format(value),
      calendarDate: (year: number, month: number, day: number) => writeCalendarDate('en', year, month, day),
    };
  }
  const zoned = (date: Date) => zonedParts(date, timeZone);
  const writeDate = (year: number, month: number, day: number) =>
    writeCalendarDate(language, year, month, day);
  const writeTime = (parts: DateParts) =>
    language === 'fil'
      ? `${parts.hour % 12 || 12}:${two(parts.minute)} ${parts.hour < 12 ? 'AM' : 'PM'}`
      : `${two(parts.hour)}:${two(parts.minute)}`;
  return {
    date: (value: Date) => {
      const parts = zoned(value);
      return writeDate(parts.year, parts.month, parts.day);
    },
    time: (value: Date) => writeTime(zoned(value)),
    dateTime: (value: Date) => {
      const parts = zoned(value);
      const date = writeDate(parts.year, parts.month, parts.day);
      return `${date}${language === 'fil' ? ',' : ''} ${writeTime(parts)}`;
    },
    calendarDate: writeDate,
  };
}

/**
 * A language's number and percentage formats, built once per locale on first use: building a locale's first
 * Intl format loads its data, which costs a phone's CPU tens of milliseconds (warmUpFormats).
 */
const numberFormats = new Map<string, { number: Intl.NumberFormat; percent: Intl.NumberFormat }>();
function numberFormatsFor(locale: string) {
  let formats = numberFormats.get(locale);
  if (!formats) {
    formats = {
      number: new Intl.NumberFormat(locale),
      percent: percentFormat(locale),
    };
    numberFormats.set(locale, formats);
  }
  return formats;
}

/**
 * Builds, ahead of the first render, the formats a signed-in page draws with: the language's money, number
 * and percentage formats, then a date format in the lender's time zone (each one task, from main.tsx).
 * Building them is mostly loading Intl's data, which on a phone's CPU made the first render of step 1 one
 * long task; the caches above and in domain/money keep what is built here for the page.
 */
export const warmUpFormats = {
  numbers() {
    const locale = intlLocale();
    numberFormatsFor(locale);
    formatMoney(0, { locale });
  },
  dates(timeZone: string) {
    todayIn(timeZone);
  },
};

/** Pure formatters, for tests and for code outside React. Every one answers `na` for a missing value. */
export function createFormatters(options: { language: Language; timeZone: string; na: string }) {
  const locale = intlLocale(options.language);
  const { na } = options;
  // Date formats are built on the first date written: the first Intl.DateTimeFormat costs a phone ~0.1 s,
  // and pages such as step 1 show no date.
  let dates: ReturnType<typeof dateWriter> | undefined;
  const writer = () => {
    dates ??= dateWriter(options.language, options.timeZone);
    return dates;
  };
  const numbers = () => numberFormatsFor(locale);
  const instant = (iso: string | Missing) => {
    if (isMissing(iso)) return null;
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? null : date;
  };
  return {
    /** "N/A" in the current language. */
    na,
    /** Text, or "N/A" when missing or blank. */
    text: (value: string | number | Missing) => (isMissing(value) ? na : String(value)),
    /** Minor units → "₱12,345.00" in the current language; `omitZeroCents` for whole-peso amounts. */
    money: (minor: number | Missing, opts: { omitZeroCents?: boolean } = {}) =>
      typeof minor === 'number' ? formatMoney(minor, { locale, omitZeroCents: opts.omitZeroCents }) : na,
    /** A count, grouped by the locale. */
    number: (value: number | Missing) => (typeof value === 'number' ? numbers().number.format(value) : na),
    /** A rate (decimal string or number, e.g. '0.02') as a percentage: "2%", "26.82%". */
    percent: (rate: string | number | Missing) => {
      if (isMissing(rate)) return na;
      const value = Number(rate);
      return Number.isFinite(value) ? numbers().percent.format(value) : na;
    },
    /** An ISO instant as date and time in the lender's time zone. */
    dateTime: (iso: string | Missing) => {
      const date = instant(iso);
      return date ? writer().dateTime(date) : na;
    },
    /** An ISO instant's date in the lender's time zone. */
    date: (iso: string | Missing) => {
      const date = instant(iso);
      return date ? writer().date(date) : na;
    },
    /** An ISO instant's time of day (hours and minutes) in the lender's time zone. */
    time: (iso: string | Missing) => {
      const date = instant(iso);
      return date ? writer().time(date) : na;
    },
    /** The lender's time zone (or another) by its place, in the reader's language: never "Asia/Manila". */
    timeZoneName: (timeZone: string = options.timeZone) => timeZonePlaceName(options.language, timeZone),
    /** A calendar date 'YYYY-MM-DD' (a due date) exactly as stored: no time zone can move it a day. */
    calendarDate: (isoDate: string | Missing) => {
      const match = isMissing(isoDate) ? null : /^(\d{4})-(\d{2})-(\d{2})$/.exec(isoDate);
      return match ? writer().calendarDate(Number(match[1]), Number(match[2]), Number(match[3])) : na;
    },
  };
}

export type Formatters = ReturnType<typeof createFormatters>;

/** Formatters for the reader's language and the lender's time zone (GET /api/settings). */
export function useFormat(): Formatters {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const language = currentLanguage();
  const na = t('common.na');
  // biome-ignore lint/correctness/useExhaustiveDependencies: i18n.language re-creates them on a switch
  return useMemo(() => createFormatters({ language, timeZone, na }), [language, timeZone, na, i18n.language]);
}
