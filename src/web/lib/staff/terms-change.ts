import type { ApplicationProfile } from '../../../domain/schemas/staff';
import { apiFetch } from '../api';
import { refreshAfterLoanChange } from './queries';
import { useStaffMutation } from './use-staff-mutation';

/**
 * POST /api/staff/applications/:id/terms-change/withdraw: staff take back new terms still waiting for the
 * borrower's acceptance (docs/decisions/018). Used by the Pending and Approved lists.
 */
export function useWithdrawTermsChange() {
  return useStaffMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiFetch<ApplicationProfile>(
        `/api/staff/applications/${encodeURIComponent(id)}/terms-change/withdraw`,
        {
          method: 'POST',
          body: { reason },
        },
      ),
    refresh: refreshAfterLoanChange,
  });
}
