import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DisbursementDto, WalletResponse, WithdrawalRequest } from '../../../../domain/schemas/wallet';
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

/** Sends a withdrawal code to the borrower's own phone, bound to this amount (whole pesos) and account. */
export function useSendWithdrawalCode() {
  return useMutation({
    mutationFn: (input: { amount: number }) =>
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
