import type { Language } from '../../../../domain/languages';
import type { ApplicationProfile } from '../../../../domain/schemas/staff';
import { apiFetch } from '../../../lib/api';
import { refreshAfterLoanChange } from '../../../lib/staff/queries';
import { useStaffMutation } from '../../../lib/staff/use-staff-mutation';

/** POST /api/staff/loans/:id/<action>: each answers the updated profile unless said otherwise. */
function post<T = ApplicationProfile>(id: string, action: string, body: object) {
  return apiFetch<T>(`/api/staff/loans/${encodeURIComponent(id)}/${action}`, { method: 'POST', body });
}

/** Every servicing change re-reads the loan lists and shows the profile from the answer at once. */
function useLoanChange<TBody extends object>(action: string) {
  return useStaffMutation({
    mutationFn: ({ id, ...body }: { id: string } & TBody) => post(id, action, body),
    refresh: refreshAfterLoanChange,
  });
}

/** Hold (the message is shown to the borrower) or release; 409 STATUS_UNCHANGED when already so. */
export const useChangeLoanStatus = () =>
  useLoanChange<{ action: 'hold' | 'release'; message?: string; reason: string }>('status');

/** Finance and admins: the borrower's payout account. */
export const useChangeBankDetails = () =>
  useLoanChange<{ bankName: string; accountNumber: string; reason: string }>('bank-details');

export const useChangeCreditScore = () =>
  useLoanChange<{ creditScore: number; reason: string }>('credit-score');

/** The language the borrower asked to be sent every SMS in (issue #36). */
export const useChangeBorrowerLanguage = () =>
  useLoanChange<{ language: Language; reason: string }>('language');

/** Shown in the borrower's status panel history. */
export const useMessageBorrower = () => useLoanChange<{ message: string; reason: string }>('message');

/** `amount` in whole pesos (staff range); never below what was already withdrawn. */
/** A raise (or a reduction not asked for by the borrower) waits for the borrower's acceptance (decision 018). */
export const useChangeLoanAmount = () =>
  useLoanChange<{ amount: number; reason: string; borrowerRequested?: boolean }>('amount');

/**
 * Admin only: the borrower's sessions end, the old password stops working, and a code goes by SMS to the
 * borrower's phone to choose a new one through "Forgot password?". Staff see neither password nor code.
 */
export const useResetBorrowerPassword = () =>
  useStaffMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      post<{ codeSent: true }>(id, 'reset-password', { reason }),
    refresh: (queryClient) => refreshAfterLoanChange(queryClient),
  });
