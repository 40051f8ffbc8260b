import type { QueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { loanStatuses } from '../../../../domain/loan/status';
import type { unappliedPaymentItem, unappliedStatuses } from '../../../../domain/schemas/payments';
import { apiFetch } from '../../../lib/api';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { refreshAfterLoanChange } from '../../../lib/staff/queries';
import { useStaffMutation } from '../../../lib/staff/use-staff-mutation';

export type UnappliedPayment = z.infer<typeof unappliedPaymentItem>;

/** What applying or returning a kept payment answers. */
interface Resolution {
  id: string;
  status: (typeof unappliedStatuses)[number];
  repaymentId: string | null;
  loanStatus: (typeof loanStatuses)[number] | null;
  /** Applied: the loan's number as stored, however it was typed. */
  loanNumber: string | null;
}

/**
 * Someone else resolved the payment first (or it is gone): toast, refresh, close. LOAN_NOT_FOUND is not one
 * here: it is about the loan number just typed, so the modal shows it on that field.
 */
const resolvedElsewhere = ['UNAPPLIED_PAYMENT_RESOLVED', 'NOT_FOUND'] as const;

const resolveUrl = (id: string, action: 'apply' | 'return') =>
  `/api/staff/unapplied-payments/${encodeURIComponent(id)}/${action}`;

/** The kept payments, and (applied) the loan's lists, the overdue queue, repayments and the dashboard. */
function refreshAfterResolution(queryClient: QueryClient) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('unapplied') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('overdue') }),
    queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('repayments') }),
    refreshAfterLoanChange(queryClient),
  ]);
}

/** Finance / admin: the payment becomes a repayment of the loan named by its number (or id). */
export function useApplyUnappliedPayment() {
  return useStaffMutation({
    mutationFn: ({ id, loan }: { id: string; loan: string }) =>
      apiFetch<Resolution>(resolveUrl(id, 'apply'), { method: 'POST', body: { loan } }),
    refresh: refreshAfterResolution,
    conflictCodes: resolvedElsewhere,
  });
}

/** Finance / admin: the money was sent back to the payer (reason required). */
export function useReturnUnappliedPayment() {
  return useStaffMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiFetch<Resolution>(resolveUrl(id, 'return'), { method: 'POST', body: { reason } }),
    refresh: (queryClient) => queryClient.invalidateQueries({ queryKey: backOfficeKeys.list('unapplied') }),
    conflictCodes: resolvedElsewhere,
  });
}
