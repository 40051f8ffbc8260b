import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { ApiError } from '../lib/api';
import { noteSessionEnded, sessionQueryKey } from '../lib/session';

/**
 * One QueryClient per app (and per test). Client errors (4xx) are never retried. When any request
 * says the session is gone or must first change its password, the session is re-read so the router
 * shows the right screen: for a session that ended, sign-in with "Your session ended; sign in to continue"
 * and a way back to the page (guards.tsx).
 */
export function createQueryClient(): QueryClient {
  let client: QueryClient;
  const onError = (error: unknown) => {
    if (!(error instanceof ApiError)) return;
    // The session ended under a signed-in user (expired, signed out elsewhere): sign-in will say so and come
    // back to this page (issue #32). The re-read below decides whether anyone is signed in now.
    if (error.code === 'UNAUTHENTICATED') noteSessionEnded(client);
    if (
      error.code === 'UNAUTHENTICATED' ||
      error.code === 'PASSWORD_CHANGE_REQUIRED' ||
      // A new privacy notice was published while the borrower was using the app: show the consent screen.
      error.code === 'PRIVACY_RECONSENT_REQUIRED' ||
      error.code === 'SECOND_FACTOR_REQUIRED' ||
      error.code === 'SECOND_FACTOR_ENROLMENT_REQUIRED' ||
      error.code === 'CSRF_FAILED'
    ) {
      void client.invalidateQueries({ queryKey: sessionQueryKey });
    }
  };
  client = new QueryClient({
    // A request started before the session was known (start-data.ts) says nothing about the session.
    queryCache: new QueryCache({
      onError: (error, query) => {
        if (!query.meta?.startedBeforeSession) onError(error);
      },
    }),
    mutationCache: new MutationCache({ onError }),
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          !(error instanceof ApiError && error.status >= 400 && error.status < 500) && failureCount < 2,
        refetchOnWindowFocus: false,
      },
      mutations: { retry: false },
    },
  });
  return client;
}
