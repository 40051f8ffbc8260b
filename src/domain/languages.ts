/**
 * The app's languages (SPEC §8), the one list (issue #37): the screens speak all four, the documents and
 * messages are written in them, and the server sends a user everything in the one stored on their account
 * (issue #36). English for anyone who never chose.
 */
export const languages = ['en', 'fil', 'zh', 'km'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';

/** Intl locales for the app's languages: Philippine English, Filipino, Simplified Chinese, Khmer (Cambodia). */
export const intlLocales: Record<Language, string> = {
  en: 'en-PH',
  fil: 'fil-PH',
  zh: 'zh-CN',
  km: 'km-KH',
};

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/**
 * The first of a reader's preferred languages (best first: `navigator.languages`, or an Accept-Language
 * header in its order) that the app speaks: `fil` or `tl` (Tagalog) → Filipino, `zh-*` → Chinese, `km-*` →
 * Khmer, `en-*` → English; else English. index.html's boot script bundles it (docs/decisions/047).
 */
export function preferredLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (base === 'fil' || base === 'tl') return 'fil';
    if ((languages as readonly string[]).includes(base ?? '')) return base as Language;
  }
  return defaultLanguage;
}
