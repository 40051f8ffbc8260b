import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { auditLabels } from '../../domain/audit-fields';
import en from '../locales/en.json';
import fil from '../locales/fil.json';
import km from '../locales/km.json';
import zh from '../locales/zh.json';

export const languages = ['en', 'zh', 'km', 'fil'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';
/** Also read by public/boot.js before the app loads. */
export const languageStorageKey = 'hiram.lang';

/**
 * Each feature keeps its strings in `locales/<feature>/<lang>.json`, merged under the key `<feature>`
 * (so `t('wallet.title')` reads `locales/wallet/en.json` → "title"). Features can then be worked on side by
 * side without touching one shared file; the locale test checks every file has the same keys.
 */
const featureFiles = import.meta.glob<{ default: Record<string, unknown> }>('../locales/*/*.json', {
  eager: true,
});

function withFeatures(lang: string, base: Record<string, unknown>): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...base };
  for (const [path, module] of Object.entries(featureFiles)) {
    const match = /\/locales\/([\w-]+)\/(\w+)\.json$/.exec(path);
    if (match && match[2] === lang) merged[match[1]!] = module.default;
  }
  // The audit catalogue is shared with the server's CSV export (src/domain/audit-labels).
  merged.auditLabels = auditLabels[lang as keyof typeof auditLabels];
  return merged;
}

export const resources = {
  en: { translation: withFeatures('en', en) },
  zh: { translation: withFeatures('zh', zh) },
  km: { translation: withFeatures('km', km) },
  fil: { translation: withFeatures('fil', fil) },
} as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

/**
 * The first of the browser's preferred languages (`navigator.languages`, best first) that the app ships:
 * `fil` or `tl` (Tagalog) → Filipino, `zh-*` → Chinese, `km-*` → Khmer, `en-*` → English; else English.
 */
export function browserLanguage(preferred: readonly string[]): Language {
  for (const tag of preferred) {
    const base = tag.trim().toLowerCase().split(/[-_]/)[0];
    if (base === 'fil' || base === 'tl') return 'fil';
    if (isLanguage(base)) return base;
  }
  return defaultLanguage;
}

/** The reader's own choice when one is stored; on a first visit, the browser's preferred language. */
export function initialLanguage(): Language {
  try {
    const value = window.localStorage.getItem(languageStorageKey);
    if (isLanguage(value)) return value;
  } catch {
    // Storage may be unavailable (private mode): follow the browser.
  }
  if (typeof navigator === 'undefined') return defaultLanguage;
  return browserLanguage(navigator.languages?.length ? navigator.languages : [navigator.language ?? '']);
}

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
});

void i18n.use(initReactI18next).init({
  resources,
  lng: initialLanguage(),
  fallbackLng: defaultLanguage,
  supportedLngs: [...languages],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

// Registered after init, so only a change (the language switch) is kept: a language picked from the browser
// on a first visit is not stored, and the app keeps following the browser until the reader chooses.
i18n.on('languageChanged', (lng) => {
  try {
    if (isLanguage(lng)) window.localStorage.setItem(languageStorageKey, lng);
  } catch {
    // Storage may be unavailable; the choice then lasts for this page only.
  }
});

/** The language actually in use, narrowed to the supported ones. */
export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : defaultLanguage;
}

export default i18n;
