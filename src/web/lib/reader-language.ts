import { defaultLanguage, isLanguage, type Language, preferredLanguage } from '../../domain/languages';

/**
 * Which language the reader starts in. src/web/boot.js bundles this module (vite.config.ts, bootScriptInHtml)
 * to set `<html lang>` and fetch those strings before the app runs, and i18n.ts starts i18next with it: one
 * rule for both. It imports nothing but the domain's language list, so the inline boot script stays small.
 */

/** localStorage key of the language the reader chose on this device. */
export const languageStorageKey = 'hiram.lang';

/** The language the reader chose on this device, if any (storage may be unavailable: private mode). */
export function savedLanguage(): Language | null {
  try {
    const value = window.localStorage.getItem(languageStorageKey);
    return isLanguage(value) ? value : null;
  } catch {
    return null;
  }
}

/** The reader's own choice when one is stored; on a first visit, the browser's preferred language. */
export function initialLanguage(): Language {
  const saved = savedLanguage();
  if (saved) return saved;
  if (typeof navigator === 'undefined') return defaultLanguage;
  return preferredLanguage(navigator.languages?.length ? navigator.languages : [navigator.language ?? '']);
}
