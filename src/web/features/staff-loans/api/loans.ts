import { type QueryClient, useQuery } from '@tanstack/react-query';
import type { LoanStatus } from '../../../../domain/loan/status';
import type { LoanLedgerDto } from '../../../../domain/schemas/repayments';
import { apiFetch } from '../../../lib/api';
import { backOfficeKeys } from '../../../lib/staff/keys';
import { refreshAfterLoanChange } from '../../../lib/staff/queries';
import { useStaffMutation } from '../../../lib/staff/use-staff-mutation';

/** One loan's ledger (schedule, repayments with allocation, payoff), under the back office's keys. */
const ledgerKey = (id: string) => [...backOfficeKeys.all, 'loan-ledger', id] as const;

const loanUrl = (id: string) => `/api/staff/loans/${encodeURIComponent(id)}`;

/** GET /api/staff/loans/:id/ledger: the loan's position today and every repayment. */
export function useLoanLedger(id: string) {
  return useQuery({
    queryKey: ledgerKey(id),
    queryFn: ({ signal }) => apiFetch<LoanLedgerDto>(`${loanUrl(id)}/ledger`, { signal }),
  });
}

/** Where a GET of a loan's statement of account (PDF) in the reader's language is answered. */
export const statementUrl = (id: string, language: string) =>
  `${loanUrl(id)}/statement.pdf?lang=${encodeURIComponent(language)}`;

/** The signed loan agreement (PDF) of an application or loan, in the reader's language. */
export const agreementUrl = (id: string, language: string) =>
  `/api/staff/applications/${encodeURIComponent(id)}/agreement.pdf?lang=${encodeURIComponent(language)}`;

/**
 * After money came in or a repayment was reversed: this loan's ledger, every back-office list (repayments,
 * servicing, overdue… a closed loan leaves the running lists), the dashboard and the profiles.
 */
function refreshAfterRepayment(queryClient: QueryClient, loanId: string) {
  return Promise.all([
    queryClient.invalidateQueries({ queryKey: ledgerKey(loanId) }),
    queryClient.invalidateQueries({ queryKey: [...backOfficeKeys.all, 'list'] }),
    refreshAfterLoanChange(queryClient),
  ]);
}

export interface RecordRepaymentInput {
  /** Pesos as typed ("1,250.50"); the server parses it to centavos. */
  amount: string;
  /** YYYY-MM-DD, not after today in the lender's time zone. */
  receivedOn: string;
  channel: string;
  reference: string;
}

/** Finance / admin: money received for a loan. Answers the loan's status (closed when nothing is owed). */
export function useRecordRepayment(loanId: string) {
  return useStaffMutation({
    mutationFn: (body: RecordRepaymentInput) =>
      apiFetch<{ id: string; loanStatus: LoanStatus }>(`${loanUrl(loanId)}/repayments`, {
        method: 'POST',
        body,
      }),
    refresh: (queryClient) => refreshAfterRepayment(queryClient, loanId),
  });
}

/** Finance / admin: a repayment of this loan recorded by mistake is reversed (never edited), with a reason. */
export function useReverseRepayment(loanId: string) {
  return useStaffMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiFetch<{ id: string; loanStatus: LoanStatus }>(
        `/api/staff/repayments/${encodeURIComponent(id)}/reverse`,
        { method: 'POST', body: { reason } },
      ),
    refresh: (queryClient) => refreshAfterRepayment(queryClient, loanId),
  });
}

/** Finance / admin: money held for the borrower (received above the payoff) recorded as sent back. */
export function useRefundCredit(loanId: string) {
  return useStaffMutation({
    mutationFn: (body: { amount: string; reference: string }) =>
      apiFetch<{ id: string; creditMinor: number }>(`${loanUrl(loanId)}/refunds`, { method: 'POST', body }),
    refresh: (queryClient) => refreshAfterRepayment(queryClient, loanId),
  });
}
