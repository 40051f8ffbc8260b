import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  DisbursementDto,
  WithdrawalPreviewResponse,
  WithdrawalRequest,
} from '../../../../domain/schemas/wallet';
import { apiFetch } from '../../../lib/api';
import { walletQueryKey } from '../../../lib/wallet-query';

// The wallet itself is read by the borrower's home too: its query lives in the shared lib.
export { useWallet, walletQueryKey } from '../../../lib/wallet-query';

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
