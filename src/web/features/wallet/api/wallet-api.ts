import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DisbursementDto,
  WalletResponse,
  WithdrawalPreviewResponse,
  WithdrawalRequest,
} from '../../../../domain/schemas/wallet';
import { apiFetch } from '../../../lib/api';

export const walletQueryKey = ['wallet'] as const;

/** While a withdrawal is being processed the wallet is re-read this often, so "Paid" shows up by itself. */
export const processingPollMs = 30_000;

export function useWallet() {
  return useQuery({
    queryKey: walletQueryKey,
    queryFn: () => apiFetch<WalletResponse>('/api/wallet'),
    refetchInterval: (query) => (query.state.data?.inProcessing ? processingPollMs : false),
  });
}

export interface WithdrawalCodeSent {
  resendAfterSeconds: number;
  expiresInSeconds: number;
}

/** Under the wallet's key: whatever refreshes the wallet (a withdrawal, a stale balance) refreshes it too. */
export const withdrawalPreviewKey = (amount: number | null) =>
  [...walletQueryKey, 'preview', amount] as const;

/**
 * What withdrawing `amount` (whole pesos) today does to the payment plan; nothing is asked while `amount`
 * is null. Not re-read by itself (window focus, intervals): the figures on screen change only when the
 * borrower changes the amount or the server says they are out of date.
 */
export function useWithdrawalPreview(amount: number | null) {
  return useQuery({
    queryKey: withdrawalPreviewKey(amount),
    queryFn: () =>
      apiFetch<WithdrawalPreviewResponse>('/api/wallet/withdrawal-preview', {
        method: 'POST',
        body: { amount },
      }),
    enabled: amount !== null,
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
    retry: false,
  });
}

/**
 * Sends a withdrawal code to the borrower's own phone, bound to this amount (whole pesos), the account and
 * the payment plan the preview showed (`planDigest`).
 */
export function useSendWithdrawalCode() {
  return useMutation({
    mutationFn: (input: { amount: number; planDigest: string }) =>
      apiFetch<WithdrawalCodeSent>('/api/wallet/withdrawal-code', { method: 'POST', body: input }),
  });
}

export function useWithdraw() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: WithdrawalRequest) =>
      apiFetch<{ disbursement: DisbursementDto; replayed: boolean }>('/api/wallet/withdrawals', {
        method: 'POST',
        body: input,
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
