import { useQuery } from '@tanstack/react-query';
import type { DisbursementDestination, DisbursementDto } from '../../../../domain/schemas/wallet';
import { apiFetch } from '../../../lib/api';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { refreshAfterPayout } from '../../../lib/staff/queries';
import { useStaffMutation } from '../../../lib/staff/use-staff-mutation';

const decisionUrl = (id: string, outcome: 'paid' | 'failed') =>
  `/api/staff/disbursements/${encodeURIComponent(id)}/${outcome}`;

/** Finance / admin: the transfer went out, with its reference. 409 DISBURSEMENT_ALREADY_DECIDED if decided. */
export function useMarkDisbursementPaid() {
  return useStaffMutation({
    mutationFn: ({ id, reference }: { id: string; reference: string }) =>
      apiFetch<DisbursementDto>(decisionUrl(id, 'paid'), { method: 'POST', body: { reference } }),
    refresh: (queryClient) => refreshAfterPayout(queryClient),
  });
}

/** Finance / admin: the transfer failed; the amount becomes available to the borrower again. */
export function useMarkDisbursementFailed() {
  return useStaffMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiFetch<DisbursementDto>(decisionUrl(id, 'failed'), { method: 'POST', body: { reason } }),
    refresh: (queryClient) => refreshAfterPayout(queryClient),
  });
}

/**
 * Finance / admin: the full account a payout goes to, so the transfer can be sent. Every fetch is a reveal
 * the server audits, so it is asked for only when someone opens it, never retried or refetched, and dropped
 * from the cache as soon as nothing on screen shows it (gcTime 0): the list itself only ever holds the last 4.
 */
export function usePayoutDestination(id: string) {
  return useQuery({
    queryKey: backOfficeKeys.payoutDestination(id),
    queryFn: () =>
      apiFetch<DisbursementDestination>(`/api/staff/disbursements/${encodeURIComponent(id)}/destination`, {
        method: 'POST',
      }),
    gcTime: 0,
    staleTime: Number.POSITIVE_INFINITY,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}
