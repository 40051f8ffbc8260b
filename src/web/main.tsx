import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { AppRoutes } from './app/routes';
import { prefetchStartData } from './app/start-data';
import { preloadPagesFor } from './components/lazy-page';
import { i18nReady } from './lib/i18n';
import { sessionQuery } from './lib/session';

const queryClient = createQueryClient();

// Fetched while the language's strings load rather than after them: the session (GET /api/me), the
// chunk of the page this path shows, and the data that page asks for first (the settings at once, a
// borrower's application as soon as the session names them).
const { pathname } = window.location;
prefetchStartData(queryClient, pathname, undefined);
void queryClient
  .prefetchQuery(sessionQuery)
  .then(() =>
    prefetchStartData(queryClient, pathname, queryClient.getQueryData(sessionQuery.queryKey)?.user),
  );
const firstPage = preloadPagesFor(pathname);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The reader's language is fetched as its own chunk; render once it and the page's chunk are there
// (index.html's own "Loading..." screen shows the wait: vite.config.ts), so the first render is the page
// itself rather than a spinner inside the page that the page then pushes aside (a layout shift).
// Rendered as a transition: React then yields to the browser every few milliseconds instead of drawing the
// whole first page in one task, which a phone's slow CPU turned into long tasks that block input (TBT).
void Promise.allSettled([i18nReady, firstPage]).then(() => {
  const root = createRoot(container);
  startTransition(() =>
    root.render(
      <StrictMode>
        <AppProviders queryClient={queryClient}>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppProviders>
      </StrictMode>,
    ),
  );
});
