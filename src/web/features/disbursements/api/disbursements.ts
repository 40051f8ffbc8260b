import type { DisbursementDto } from '../../../../domain/schemas/wallet';
import { apiFetch } from '../../../lib/api';
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
