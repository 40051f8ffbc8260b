import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { auditLabels } from '../../domain/audit-fields';
import en from '../locales/en.json';
import km from '../locales/km.json';
import zh from '../locales/zh.json';

export const languages = ['en', 'zh', 'km'] as const;
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
} as const;

export function isLanguage(value: unknown): value is Language {
  return typeof value === 'string' && (languages as readonly string[]).includes(value);
}

function storedLanguage(): Language {
  try {
    const value = window.localStorage.getItem(languageStorageKey);
    return isLanguage(value) ? value : defaultLanguage;
  } catch {
    return defaultLanguage;
  }
}

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
  try {
    if (isLanguage(lng)) window.localStorage.setItem(languageStorageKey, lng);
  } catch {
    // Storage may be unavailable; the choice then lasts for this page only.
  }
});

void i18n.use(initReactI18next).init({
  resources,
  lng: storedLanguage(),
  fallbackLng: defaultLanguage,
  supportedLngs: [...languages],
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
});

/** The language actually in use, narrowed to the supported ones. */
export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : defaultLanguage;
}

export default i18n;
