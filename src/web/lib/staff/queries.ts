import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { ApplicationProfile } from '../../../domain/schemas/staff';
import { apiFetch } from '../api';
import { backOfficeKeys } from './keys';

/** GET /api/staff/applications/:id — every field, documents, balance (View Profile). */
export const applicationProfileQuery = (id: string) =>
  queryOptions({
    queryKey: backOfficeKeys.application(id),
    queryFn: ({ signal }) => apiFetch<ApplicationProfile>(`/api/staff/applications/${id}`, { signal }),
  });

/**
 * After any change to an application or loan: the loan lists, the dashboard, the pending count and the
 * profile are re-read (the live event stream would also say so, but this screen should not wait for it).
 * With the updated profile from the answer, it is shown at once.
 */
export function refreshAfterLoanChange(queryClient: QueryClient, profile?: ApplicationProfile) {
  if (profile) queryClient.setQueryData(backOfficeKeys.application(profile.id), profile);
  else void queryClient.invalidateQueries({ queryKey: backOfficeKeys.applications });
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('pending') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('approved') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('servicing') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.dashboard }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.pendingCount }),
  ]);
}

/** After a payout decision: the payout list, the servicing balances and the dashboard's "Disbursed Today". */
export function refreshAfterPayout(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('disbursements') }),
    refreshAfterLoanChange(queryClient),
  ]);
}

/** After a change to a user: the user list, and the dashboard (a deactivated borrower counts differently). */
export function refreshAfterUserChange(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('users') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.dashboard }),
  ]);
}
