import type { ApplicationProfile } from '../../../../domain/schemas/staff';
import { apiFetch } from '../../../lib/api';
import { refreshAfterLoanChange } from '../../../lib/staff/queries';
import { useStaffMutation } from '../../../lib/staff/use-staff-mutation';

export type LoanQueue = 'pending' | 'approved';

const applicationUrl = (id: string, action: string) =>
  `/api/staff/applications/${encodeURIComponent(id)}/${action}`;

/** Each decision answers the updated profile, shown at once; the lists and dashboard are re-read. */
const refresh = refreshAfterLoanChange;

/** POST /api/staff/applications/:id/approve with the credit score; one atomic approval. */
export function useApproveApplication() {
  return useStaffMutation({
    mutationFn: ({ id, creditScore }: { id: string; creditScore: number }) =>
      apiFetch<ApplicationProfile>(applicationUrl(id, 'approve'), { method: 'POST', body: { creditScore } }),
    refresh,
  });
}

/** POST /api/staff/applications/:id/confirm-approval: the second staff member confirms (four-eyes). */
export function useConfirmApproval() {
  return useStaffMutation({
    mutationFn: ({ id }: { id: string }) =>
      apiFetch<ApplicationProfile>(applicationUrl(id, 'confirm-approval'), { method: 'POST' }),
    refresh,
  });
}

/** POST /api/staff/applications/:id/reject with the reason the borrower will read. */
export function useRejectApplication() {
  return useStaffMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiFetch<ApplicationProfile>(applicationUrl(id, 'reject'), { method: 'POST', body: { reason } }),
    refresh,
  });
}

export interface LoanTermsChange {
  queue: LoanQueue;
  id: string;
  /** Whole pesos. */
  amount: number;
  termMonths: number;
  reason?: string;
  /** A lower amount the borrower asked for: applied at once; anything else waits for the borrower. */
  borrowerRequested?: boolean;
}

/** POST /api/staff/applications/{pending|approved}/:id/terms: amount and term of a pending or approved loan. */
export function useUpdateLoanTerms() {
  return useStaffMutation({
    mutationFn: ({ queue, id, ...body }: LoanTermsChange) =>
      apiFetch<ApplicationProfile>(`/api/staff/applications/${queue}/${encodeURIComponent(id)}/terms`, {
        method: 'POST',
        body,
      }),
    refresh,
  });
}
