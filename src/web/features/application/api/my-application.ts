import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MyApplicationResponse } from '../../../../domain/schemas/application';
import { apiFetch } from '../../../lib/api';

// Apart from the quote and submit calls (./applications) so the session guard, on every first load, does not
// bring the disclosure schemas with it (issue #12).
export const myApplicationQueryKey = ['applications', 'mine'] as const;

export function fetchMyApplication(): Promise<MyApplicationResponse> {
  return apiFetch<MyApplicationResponse>('/api/applications/mine');
}

/**
 * Fresh for a few seconds, so the copy fetched while the page's code was still loading (main.tsx) is the one
 * the page shows, without asking again as it mounts. "Apply" always asks again (staleTime 0) before it
 * lets the borrower on, and a submitted application invalidates it.
 */
export const myApplicationQuery = queryOptions({
  queryKey: myApplicationQueryKey,
  queryFn: fetchMyApplication,
  staleTime: 10_000,
});

/** The borrower's latest application and whether they may apply (an open one or a running loan blocks). */
export function useMyApplication() {
  return useQuery(myApplicationQuery);
}
