// Runs before the first paint (bundled, minified and written into index.html by vite.config.ts,
// bootScriptInHtml), so it already uses the saved colour scheme and language, and starts what the path's first
// render will need. The language is chosen by the app's own rule (lib/reader-language.ts, bundled in); the
// colour scheme's key is shared with src/web/app/theme.ts (hiram.color-scheme).
import { initialLanguage, savedLanguage } from './lib/reader-language';

(() => {
  const root = document.documentElement;
  try {
    let scheme = localStorage.getItem('hiram.color-scheme');
    if (scheme !== 'light' && scheme !== 'dark') {
      scheme = window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
    }
    root.setAttribute('data-mantine-color-scheme', scheme);
  } catch {
    // Storage can be unavailable (private mode); the app then starts with its defaults.
  }
  const saved = savedLanguage();
  if (saved) root.setAttribute('lang', saved);

  // The files the app would otherwise ask for only once its own code has run: the strings of the language
  // it will pick (and the wallet's, on the pages that wait for them: lazy-page's `strings`), and the chunks,
  // styles and first picture of this path's page. Fetched now, alongside the app; each still runs only when the
  // app imports it. The build defines the table (vite.config.ts, firstRequests); in development it is empty
  // and nothing is fetched.
  const firstRequests = __FIRST_REQUESTS__;
  const page = firstRequests.pages[location.pathname] || {};
  const preload = (rel, href, as, priority) => {
    const link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    if (as) link.as = as;
    if (priority) link.fetchPriority = priority;
    // Same request mode as Vite's own imports and style links, so theirs find these in the cache.
    if (as !== 'image') link.crossOrigin = '';
    document.head.appendChild(link);
  };
  const language = initialLanguage();
  const strings = [
    firstRequests.strings[language],
    page.walletStrings && firstRequests.walletStrings[language],
  ];
  for (const href of [...strings, ...(page.scripts || [])]) if (href) preload('modulepreload', href);
  for (const href of page.styles || []) preload('preload', href, 'style');
  // The first picture (in its module's import order) is the one drawn at once, step 1's banner's first slide
  // and its largest element: asked for at high priority, since Chromium otherwise holds image preloads back
  // behind the scripts and styles. The others show only once the banner turns, 6 s later: their <img>s ask
  // for them when the page is drawn, rather than taking a phone's bandwidth from the first load's scripts.
  const picture = page.pictures?.[0];
  if (picture) preload('preload', picture, 'image', 'high');

  // The answers the first render waits for, asked now too: the session on every path, the lender's settings
  // off the sign-in pages, the borrower's application and offered products on /loan and the privacy notice on
  // /signup (as src/web/app/start-data.ts does once the app runs). lib/api.ts uses each for the first GET of
  // its path instead of asking again.
  const path = location.pathname;
  const answers = ['/api/me'];
  if (!['/login', '/signup', '/forgot-password'].includes(path)) answers.push('/api/settings');
  if (path === '/loan' || path.startsWith('/loan/')) answers.push('/api/applications/mine', '/api/products');
  if (path === '/signup') answers.push('/api/privacy/notice');
  window.__hiramEarlyAnswers = {};
  for (const url of answers) {
    const answer = fetch(url, { headers: { accept: 'application/json' }, credentials: 'same-origin' });
    answer.catch(() => {}); // a failure is the app's to report, when it takes the answer
    window.__hiramEarlyAnswers[url] = answer;
  }
})();

// Zod compiles object parsers with `new Function` unless told not to; the Content-Security-Policy forbids
// eval, and even zod's caught probe for it is reported as a violation. Zod reads this global config when its
// first schema is built, which happens while the app's modules load — so it is set here, before them.
window.__zod_globalConfig = Object.assign(window.__zod_globalConfig || {}, { jitless: true });
