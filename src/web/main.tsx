import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { AppRoutes } from './app/routes';
import { preloadPagesFor } from './components/lazy-page';
import { i18nReady } from './lib/i18n';
import { sessionQuery } from './lib/session';

const queryClient = createQueryClient();

// Fetched while the language's strings load rather than after them: the session (GET /api/me) and the
// chunk of the page this path shows.
void queryClient.prefetchQuery(sessionQuery);
preloadPagesFor(window.location.pathname);

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// The reader's language is fetched as its own chunk; render once it is there (boot.js shows the wait).
void i18nReady.finally(() =>
  createRoot(container).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
      </AppProviders>
    </StrictMode>,
  ),
);
