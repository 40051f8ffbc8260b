import { applyAppStyles } from './lib/app-styles';
import { nextTask } from './lib/next-task';

/**
 * The app starts in steps, each in a task of its own (docs/decisions/029): evaluating all of main.js at
 * once was one ~190 ms task on a phone's CPU (4× throttled), which blocked input and was most of the first
 * load's Total Blocking Time. Its modules are in one chunk all the same (vite.config.ts), so the steps cost
 * no request: each dynamic import here only runs modules already downloaded. The order puts the requests
 * first: the reader's strings, then the session and the data the page asks for first, then the page's chunk.
 */
async function start() {
  const styles = applyAppStyles();
  const { i18nReady } = await import('./lib/i18n');
  await nextTask();

  const [{ createQueryClient }, { sessionQuery }, { forgetEarlyAnswers }] = await Promise.all([
    import('./app/query-client'),
    import('./lib/session'),
    import('./lib/api'),
  ]);
  const queryClient = createQueryClient();
  const session = queryClient.prefetchQuery(sessionQuery);
  await nextTask();

  // GET /api/settings at once, a borrower's application alongside the session (step 1) or as soon as the
  // session names a borrower.
  const { isSignInPath, prefetchGateData, prefetchPageData, prefetchStartData } = await import(
    './app/start-data'
  );
  const { pathname } = window.location;
  prefetchStartData(queryClient, pathname, undefined);
  // /signup's privacy notice: drawn in the first render rather than a round trip after it.
  const pageData = prefetchPageData(queryClient, pathname);
  // The consent card (or the change-password page) when the session says it replaces every page: its chunk
  // and data before the first render, so it is drawn whole (issue #35).
  const gate = session.then(() => {
    const user = queryClient.getQueryData(sessionQuery.queryKey)?.user;
    prefetchStartData(queryClient, pathname, user);
    return prefetchGateData(queryClient, user);
  });
  // Every answer index.html's boot script asked for has now been taken; none may answer a later request.
  forgetEarlyAnswers();
  await nextTask();

  // The routes register each page's chunk with lazy-page as they load.
  const [{ preloadPagesFor }] = await Promise.all([import('./components/lazy-page'), import('./app/routes')]);
  const firstPage = preloadPagesFor(pathname);
  await nextTask();

  // React's own modules take a task of their own; the providers and the router follow.
  await import('react-dom/client');
  await nextTask();
  const { renderApp } = await import('./app/render-app');

  // Render once the reader's language, the page's chunk and the stylesheet are in (index.html's own
  // "Loading..." screen shows the wait: vite.config.ts), so the first render is the page itself rather than
  // a spinner inside the page that the page then pushes aside (a layout shift).
  await Promise.allSettled([i18nReady, firstPage, styles, gate, pageData]);
  if (!isSignInPath(pathname)) {
    const [{ warmUpFormats }, { timeZoneKnownTo }] = await Promise.all([
      import('./lib/format'),
      import('./lib/settings'),
    ]);
    // Only a head start: a format the browser cannot build fails again, visibly, where the page uses it.
    const warmUp = (step: () => void) => {
      try {
        step();
      } catch {}
    };
    await nextTask();
    warmUp(() => warmUpFormats.numbers());
    await nextTask();
    warmUp(() => warmUpFormats.dates(timeZoneKnownTo(queryClient)));
    await nextTask();
  }

  const container = document.getElementById('root');
  if (!container) throw new Error('index.html has no #root element');
  renderApp(container, queryClient);
}

void start();
