import i18n, { type BackendModule } from 'i18next';
import { initReactI18next } from 'react-i18next';
import {
  defaultLanguage,
  isLanguage,
  type Language,
  languages,
  preferredLanguage,
} from '../../domain/languages';

import { initialLanguage, languageStorageKey, savedLanguage } from './reader-language';

export { defaultLanguage, initialLanguage, type Language, languageStorageKey, languages };

type Strings = Record<string, unknown>;

/**
 * One chunk per language (`locales/<lang>.bundle.ts`): a reader downloads only the language in use, and
 * another one only when they switch to it. Staff strings are separate chunks (`loadStaffStrings`).
 */
const bundles: Record<Language, () => Promise<{ default: Strings }>> = {
  en: () => import('../locales/en.bundle'),
  zh: () => import('../locales/zh.bundle'),
  km: () => import('../locales/km.bundle'),
  fil: () => import('../locales/fil.bundle'),
};

/**
 * Strings a chunk per language of their own, added to the language when a page that shows them loads: the
 * wallet's, payments', account's and complaints' (`loadWalletStrings`), which the sign-in pages and step 1
 * do not show (issue #35), and the back office's (`loadStaffStrings`), which borrowers never download.
 */
const extraBundles = {
  wallet: {
    en: () => import('../locales/en.wallet'),
    zh: () => import('../locales/zh.wallet'),
    km: () => import('../locales/km.wallet'),
    fil: () => import('../locales/fil.wallet'),
  },
  staff: {
    en: () => import('../locales/en.staff'),
    zh: () => import('../locales/zh.staff'),
    km: () => import('../locales/km.staff'),
    fil: () => import('../locales/fil.staff'),
  },
} satisfies Record<string, Record<Language, () => Promise<{ default: Strings }>>>;
type Extra = keyof typeof extraBundles;

/** Once a page has asked for an extra set, every language loaded from then on brings it too. */
const extrasWanted = new Set<Extra>();

/** One language's strings, with the extra sets asked for so far (or those given). */
async function readStrings(lang: Language, extras: Iterable<Extra> = extrasWanted): Promise<Strings> {
  const [shared, ...more] = await Promise.all([
    bundles[lang](),
    ...[...extras].map((extra) => extraBundles[extra][lang]()),
  ]);
  // The back office's own error messages join the shared ones (the rest of its strings are keys of their own).
  let merged: Strings = { ...shared.default };
  let errors = { ...(shared.default.errors as object) };
  for (const { default: strings } of more) {
    merged = { ...merged, ...strings };
    errors = { ...errors, ...(strings.errors as object | undefined) };
  }
  return { ...merged, errors };
}

/** Every string of one language, borrower and staff, merged as the app reads them (the locale test). */
export const loadAllStrings = (lang: Language) => readStrings(lang, ['wallet', 'staff']);

/**
 * Adds an extra set to every language already loaded, and to every language loaded later. Waits for the
 * first language: a page's chunk may be fetched (main.tsx) while that language is still on its way, and
 * its read may have started before the set was asked for.
 */
async function loadExtraStrings(extra: Extra): Promise<void> {
  extrasWanted.add(extra);
  await i18nReady;
  const loaded = Object.keys(i18n.store?.data ?? {}).filter(isLanguage);
  await Promise.all(
    loaded.map(async (lang) => {
      const strings = (await extraBundles[extra][lang]()).default;
      i18n.addResourceBundle(lang, 'translation', strings, true, true);
    }),
  );
}

/**
 * The wallet's, payments', account's and complaints' strings: the pages that show them (lazy-page's
 * `strings`, the open loan's home) render only once they are in, so no one sees a raw key.
 */
export const loadWalletStrings = () => loadExtraStrings('wallet');

/**
 * The back office's strings, with the wallet's (its screens show payments and complaints): the back office's
 * chunks wait for this before they render, so staff never see a raw key.
 */
export async function loadStaffStrings(): Promise<void> {
  await Promise.all([loadExtraStrings('wallet'), loadExtraStrings('staff')]);
}

const lazyBundles: BackendModule = {
  type: 'backend',
  init() {},
  read(language, _namespace, callback) {
    if (!isLanguage(language)) return callback(null, {});
    readStrings(language).then(
      (strings) => callback(null, strings),
      (error: Error) => callback(error, null),
    );
  },
};

export { isLanguage };

/**
 * The first of the browser's preferred languages (`navigator.languages`, best first) that the app ships:
 * `fil` or `tl` (Tagalog) → Filipino, `zh-*` → Chinese, `km-*` → Khmer, `en-*` → English; else English.
 */
export function browserLanguage(preferred: readonly string[]): Language {
  // The server picks the page's own texts from Accept-Language by the same rule.
  return preferredLanguage(preferred);
}

i18n.on('languageChanged', (lng) => {
  if (typeof document !== 'undefined') document.documentElement.lang = lng;
});

/**
 * Resolves once the reader's language is loaded: main.tsx renders after it, so the first paint is never a
 * row of keys. Every language has every key (the locale test), so no fallback language is loaded beside it.
 */
export const i18nReady = i18n
  .use(lazyBundles)
  .use(initReactI18next)
  .init({
    lng: initialLanguage(),
    fallbackLng: false,
    supportedLngs: [...languages],
    load: 'currentOnly',
    interpolation: { escapeValue: false },
    returnNull: false,
    react: { useSuspense: false },
  });

// Registered once the first language is in (init loads it asynchronously and announces it as a change), so
// only a later change (the language switch) is kept: a language picked from the browser on a first visit is
// not stored, and the app keeps following the browser until the reader chooses.
void i18nReady.then(() =>
  i18n.on('languageChanged', (lng) => {
    try {
      if (isLanguage(lng)) window.localStorage.setItem(languageStorageKey, lng);
    } catch {
      // Storage may be unavailable; the choice then lasts for this page only.
    }
  }),
);

/**
 * At sign-in, the screen follows the language the account keeps (the one its messages are written in) unless
 * the reader chose one on this device: a borrower who chose Khmer on their old phone sees Khmer on a new one,
 * while a choice made here (a shared phone, or just now on the sign-in page) is left as it is.
 */
export function followAccountLanguage(language: Language): void {
  // Storage unavailable counts as no choice: nothing was chosen that could be kept; follow the account.
  if (savedLanguage()) return;
  if (language !== currentLanguage()) void i18n.changeLanguage(language);
}

/** The language actually in use, narrowed to the supported ones. */
export function currentLanguage(): Language {
  return isLanguage(i18n.resolvedLanguage) ? i18n.resolvedLanguage : defaultLanguage;
}

export default i18n;
