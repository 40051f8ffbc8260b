/** The one percentage rule (issue #37): up to two decimals, trailing zeros dropped ('0.268242' → "26.82%"). */
export const PERCENT_DECIMALS = 2;

const formats = new Map<string, Intl.NumberFormat>();

/**
 * The percentage format of an Intl locale, built once per locale on first use (building a locale's first
 * format loads its data: tens of milliseconds on a phone). The screens, the statement and the loan
 * documents all write rates with it.
 */
export function percentFormat(locale: string): Intl.NumberFormat {
  let format = formats.get(locale);
  if (!format) {
    format = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: PERCENT_DECIMALS });
    formats.set(locale, format);
  }
  return format;
}
