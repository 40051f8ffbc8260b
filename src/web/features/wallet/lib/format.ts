import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../../domain/money';
import { defaultLanguage, isLanguage } from '../../../lib/i18n';
import { useTimeZone } from '../../../lib/settings';

export interface Formatters {
  money: (minor: number) => string;
  /** An instant (ISO timestamp) as date and time in the lender's time zone. */
  dateTime: (iso: string) => string;
  /** A calendar date ('YYYY-MM-DD', e.g. a due date) exactly as stored: no time zone can shift it. */
  date: (isoDate: string) => string;
}

/** Instants are shown in the lender's time zone (SPEC §3), from GET /api/settings. */
export function makeFormatters(locale: string, timeZone: string): Formatters {
  const dateTime = new Intl.DateTimeFormat(locale, {
    timeZone,
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const date = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', dateStyle: 'medium' });
  return {
    money: (minor) => formatMoney(minor, { locale }),
    dateTime: (iso) => {
      const value = new Date(iso);
      return Number.isNaN(value.getTime()) ? iso : dateTime.format(value);
    },
    date: (isoDate) => {
      const value = new Date(`${isoDate}T00:00:00Z`);
      return Number.isNaN(value.getTime()) ? isoDate : date.format(value);
    },
  };
}

/** Money and dates in the current language. */
export function useFormatters(): Formatters {
  const { i18n } = useTranslation();
  const language = isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : defaultLanguage;
  const timeZone = useTimeZone();
  return useMemo(() => makeFormatters(language, timeZone), [language, timeZone]);
}
