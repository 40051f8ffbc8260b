import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { ApplicationProfile } from '../../../../domain/schemas/staff';
import { apiFetch } from '../../../lib/api';
import { backOfficeKeys } from './keys';

/** GET /api/staff/applications/:id — every field, documents, balance (View Profile). */
export const applicationProfileQuery = (id: string) =>
  queryOptions({
    queryKey: backOfficeKeys.application(id),
    queryFn: ({ signal }) => apiFetch<ApplicationProfile>(`/api/staff/applications/${id}`, { signal }),
  });

export type LoanQueue = 'pending' | 'approved';

export interface LoanTermsBody {
  /** Whole pesos. */
  amount: number;
  termMonths: number;
  reason?: string;
}

export function updateLoanTerms(queue: LoanQueue, id: string, body: LoanTermsBody) {
  return apiFetch<ApplicationProfile>(`/api/staff/applications/${queue}/${id}/terms`, {
    method: 'POST',
    body,
  });
}

export function approveApplication(id: string, creditScore: number) {
  return apiFetch<ApplicationProfile>(`/api/staff/applications/${id}/approve`, {
    method: 'POST',
    body: { creditScore },
  });
}

export function rejectApplication(id: string, reason: string) {
  return apiFetch<ApplicationProfile>(`/api/staff/applications/${id}/reject`, {
    method: 'POST',
    body: { reason },
  });
}

/**
 * After any change to an application: both lists, the dashboard, the pending count and the profile are
 * re-read (the live event stream would also say so, but this screen should not wait for it).
 */
export function refreshAfterApplicationChange(queryClient: QueryClient, profile?: ApplicationProfile) {
  if (profile) queryClient.setQueryData(backOfficeKeys.application(profile.id), profile);
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('pending') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('approved') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('servicing') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.dashboard }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.pendingCount }),
  ]);
}
