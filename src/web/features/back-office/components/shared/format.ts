import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../../../domain/money';
import { currentLanguage, type Language } from '../../../../lib/i18n';
import { useTimeZone } from '../../../../lib/settings';

/** Intl locales for the app's languages: Philippine English, Simplified Chinese, Khmer (Cambodia). */
const intlLocales: Record<Language, string> = { en: 'en-PH', zh: 'zh-CN', km: 'km-KH' };

export function intlLocale(language: Language = currentLanguage()): string {
  return intlLocales[language];
}

export type Missing = null | undefined | '';

export function isMissing(value: unknown): value is Missing {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}

/** Pure formatters, for tests and for code outside React. */
export function createFormatters(options: { language: Language; timeZone: string; na: string }) {
  const locale = intlLocale(options.language);
  const { na, timeZone } = options;
  // Browsers without Khmer month names print English ones; Khmer dates are therefore numeric
  // (day/month/year, as written in Cambodia) and Khmer and Chinese times use the 24-hour clock.
  const numericDate = options.language === 'km';
  const dateParts: Intl.DateTimeFormatOptions = numericDate
    ? { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }
    : { timeZone, year: 'numeric', month: 'short', day: 'numeric' };
  const timeParts: Intl.DateTimeFormatOptions = {
    hour: '2-digit',
    minute: '2-digit',
    ...(options.language === 'en' ? {} : { hourCycle: 'h23' as const }),
  };
  // A browser without Khmer data would fall back to US month/day order: spell day/month/year out.
  const dateLocale = numericDate ? 'en-GB' : locale;
  const dateTimeFormat = new Intl.DateTimeFormat(dateLocale, { ...dateParts, ...timeParts });
  const dateFormat = new Intl.DateTimeFormat(dateLocale, dateParts);
  const timeFormat = new Intl.DateTimeFormat(dateLocale, { timeZone, ...timeParts });
  const numberFormat = new Intl.NumberFormat(locale);
  const parse = (iso: string) => {
    const date = new Date(iso);
    return Number.isNaN(date.getTime()) ? null : date;
  };
  return {
    /** "N/A" in the current language. */
    na,
    /** Text, or "N/A" when missing or blank. */
    text: (value: string | number | Missing) => (isMissing(value) ? na : String(value)),
    /** Minor units → "₱12,345.00" in the current language; "N/A" when missing. */
    money: (minor: number | Missing, opts: { omitZeroCents?: boolean } = {}) =>
      typeof minor === 'number' ? formatMoney(minor, { locale, omitZeroCents: opts.omitZeroCents }) : na,
    /** A whole count, grouped by the locale. */
    number: (value: number | Missing) => (typeof value === 'number' ? numberFormat.format(value) : na),
    /** An ISO instant as date and time in the configured time zone. */
    dateTime: (iso: string | Missing) => {
      const date = isMissing(iso) ? null : parse(iso);
      return date ? dateTimeFormat.format(date) : na;
    },
    /** An ISO instant as a date in the configured time zone. */
    date: (iso: string | Missing) => {
      const date = isMissing(iso) ? null : parse(iso);
      return date ? dateFormat.format(date) : na;
    },
    /** An ISO instant's time of day (hours and minutes) in the configured time zone. */
    time: (iso: string | Missing) => {
      const date = isMissing(iso) ? null : parse(iso);
      return date ? timeFormat.format(date) : na;
    },
    /** A decimal rate string such as '0.02' → "2%" ('0.268242' → "26.8242%"). */
    percent: (rate: string | number | Missing) => {
      if (isMissing(rate)) return na;
      const value = Number(rate);
      if (!Number.isFinite(value)) return na;
      return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 4 }).format(value);
    },
  };
}

export type Formatters = ReturnType<typeof createFormatters>;

/** Formatters for the current language and the configured time zone; missing values become "N/A". */
export function useFormat(): Formatters {
  const { t, i18n } = useTranslation();
  const timeZone = useTimeZone();
  const language = currentLanguage();
  const na = t('backOffice.common.na');
  // biome-ignore lint/correctness/useExhaustiveDependencies: i18n.language re-creates them on a switch
  return useMemo(() => createFormatters({ language, timeZone, na }), [language, timeZone, na, i18n.language]);
}
