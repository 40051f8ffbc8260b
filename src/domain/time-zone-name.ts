import { intlLocales, type Language } from './languages';

/**
 * The lender's usual time zone by its place, written out (CLDR's names, as Node's Intl writes them): a
 * browser without a language's data (Debian's Chromium has no Khmer) would otherwise name it in English.
 */
const writtenOut: Record<string, Record<Language, string>> = {
  'Asia/Manila': {
    en: 'Philippine Standard Time',
    fil: 'Standard na Oras sa Pilipinas',
    zh: '菲律宾标准时间',
    km: 'ម៉ោង\u200bស្តង់ដារ\u200bនៅ\u200bហ្វីលីពីន',
  },
};

function intlName(locale: string, timeZone: string): { name: string; locale: string } | null {
  try {
    const format = new Intl.DateTimeFormat(locale, { timeZone, timeZoneName: 'longGeneric' });
    const name = format.formatToParts(new Date()).find((part) => part.type === 'timeZoneName')?.value;
    return name ? { name, locale: format.resolvedOptions().locale } : null;
  } catch {
    return null;
  }
}

/**
 * A time zone by its place in the reader's language ("Philippine Standard Time", "菲律宾标准时间"), never its
 * system name ("Asia/Manila"): written out for the lender's usual zone, else Intl's name when the browser has
 * the language's data, else Intl's English name (every browser has it).
 */
export function timeZonePlaceName(language: Language, timeZone: string): string {
  const known = writtenOut[timeZone]?.[language];
  if (known) return known;
  const own = intlName(intlLocales[language], timeZone);
  if (own && own.locale.split('-')[0] === language) return own.name;
  return intlName(intlLocales.en, timeZone)?.name ?? timeZone.split('/').at(-1)!.replaceAll('_', ' ');
}
