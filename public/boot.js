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
