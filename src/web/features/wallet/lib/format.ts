import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { formatMoney } from '../../../../domain/money';
import { defaultLanguage, isLanguage } from '../../../lib/i18n';

/**
 * Times are shown in the lender's time zone (SPEC §3, §6 default). The borrower API does not send the
 * configured zone, so the web uses the default.
 */
export const displayTimeZone = 'Asia/Manila';

export interface Formatters {
  money: (minor: number) => string;
  /** An instant (ISO timestamp) as date and time in the lender's time zone. */
  dateTime: (iso: string) => string;
  /** A calendar date ('YYYY-MM-DD', e.g. a due date) exactly as stored: no time zone can shift it. */
  date: (isoDate: string) => string;
}

export function makeFormatters(locale: string): Formatters {
  const dateTime = new Intl.DateTimeFormat(locale, {
    timeZone: displayTimeZone,
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
  return useMemo(() => makeFormatters(language), [language]);
}
