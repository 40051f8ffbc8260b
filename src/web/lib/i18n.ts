import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import en from '../locales/en.json';
import km from '../locales/km.json';
import zh from '../locales/zh.json';

export const languages = ['en', 'zh', 'km'] as const;
export type Language = (typeof languages)[number];
export const defaultLanguage: Language = 'en';
/** Also read by public/boot.js before the app loads. */
export const languageStorageKey = 'hiram.lang';

export const resources = {
  en: { translation: en },
  zh: { translation: zh },
  km: { translation: km },
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
