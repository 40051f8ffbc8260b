import type { QueryClient } from '@tanstack/react-query';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { AppProviders } from './providers';
import { AppRoutes } from './routes';

/**
 * Draws the app into `container`, replacing index.html's loading screen. Rendered as a transition: React
 * then yields to the browser every few milliseconds instead of drawing the whole first page in one task,
 * which a phone's slow CPU turned into long tasks that block input (TBT).
 */
export function renderApp(container: HTMLElement, queryClient: QueryClient) {
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
}
