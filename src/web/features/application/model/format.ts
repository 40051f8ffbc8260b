import { formatMoney } from '../../../../domain/money';

/** Money in the UI language's number format, always with the "₱" sign. */
export function money(minor: number, locale: string, omitZeroCents = false): string {
  return formatMoney(minor, { locale, omitZeroCents });
}

/** Whole pesos as typed in the amount field: ASCII digits with comma grouping in every language. */
export function groupedPesos(pesos: number): string {
  return new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }).format(pesos);
}

/** An exact rate string ('0.268242') as a percentage with at most two decimals ("26.82%"). */
export function percent(rate: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 2 }).format(Number(rate));
}

/** A calendar date 'YYYY-MM-DD' in the UI language; read as UTC so no time zone moves it a day. */
export function calendarDate(iso: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'medium', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  );
}
