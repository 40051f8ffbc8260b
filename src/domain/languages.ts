/**
 * The languages a user reads (SPEC §8): the screens speak all four, and the server writes everything it
 * sends a user in the one stored on their account (issue #36). English for anyone who never chose.
 */
export const userLanguages = ['en', 'fil', 'zh', 'km'] as const;
export type UserLanguage = (typeof userLanguages)[number];
export const defaultUserLanguage: UserLanguage = 'en';

/**
 * The first of a reader's preferred languages (best first: `navigator.languages`, or an Accept-Language
 * header in its order) that the app speaks: `fil` or `tl` (Tagalog) → Filipino, `zh-*` → Chinese, `km-*` →
 * Khmer, `en-*` → English; else English. src/web/boot.js repeats this rule: change them together.
 */
export function preferredLanguage(preferred: readonly string[]): UserLanguage {
  for (const tag of preferred) {
    const base = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (base === 'fil' || base === 'tl') return 'fil';
    if ((userLanguages as readonly string[]).includes(base ?? '')) return base as UserLanguage;
  }
  return defaultUserLanguage;
}
