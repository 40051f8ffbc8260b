// Runs before the app loads so the first paint already uses the saved colour scheme and language.
// Keys are shared with src/web/app/theme.ts (hiram.color-scheme) and src/web/lib/i18n.ts (hiram.lang).
(() => {
  const root = document.documentElement;
  try {
    let scheme = localStorage.getItem('hiram.color-scheme');
    if (scheme !== 'light' && scheme !== 'dark') {
      scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    }
    root.setAttribute('data-mantine-color-scheme', scheme);
    const lang = localStorage.getItem('hiram.lang');
    if (lang === 'en' || lang === 'zh' || lang === 'km' || lang === 'fil') root.setAttribute('lang', lang);
  } catch {
    // Storage can be unavailable (private mode); the app then starts with its defaults.
  }
})();

// Zod compiles object parsers with `new Function` unless told not to; the Content-Security-Policy forbids
// eval, and even zod's caught probe for it is reported as a violation. Zod reads this global config when its
// first schema is built, which happens while the app's modules load — so it is set here, before them.
window.__zod_globalConfig = Object.assign(window.__zod_globalConfig || {}, { jitless: true });
