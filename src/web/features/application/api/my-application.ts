import { useQuery } from '@tanstack/react-query';
import type { MyApplicationResponse } from '../../../../domain/schemas/application';
import { apiFetch } from '../../../lib/api';

// Apart from the quote and submit calls (./applications) so the session guard, on every first load, does not
// bring the disclosure schemas with it (issue #12).
export const myApplicationQueryKey = ['applications', 'mine'] as const;

export function fetchMyApplication(): Promise<MyApplicationResponse> {
  return apiFetch<MyApplicationResponse>('/api/applications/mine');
}

/** The borrower's latest application and whether they may apply (an open one or a running loan blocks). */
export function useMyApplication() {
  return useQuery({ queryKey: myApplicationQueryKey, queryFn: fetchMyApplication });
}
