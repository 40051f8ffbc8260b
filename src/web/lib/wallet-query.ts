import { useQuery } from '@tanstack/react-query';
import type { WalletResponse } from '../../domain/schemas/wallet';
import { apiFetch } from './api';

/** GET /api/wallet, read by the wallet and by the borrower's home (the state of their loan). */
export const walletQueryKey = ['wallet'] as const;

/** While a withdrawal is being processed the wallet is re-read this often, so "Paid" shows up by itself. */
const processingPollMs = 30_000;

export function useWallet() {
  return useQuery({
    queryKey: walletQueryKey,
    queryFn: () => apiFetch<WalletResponse>('/api/wallet'),
    refetchInterval: (query) => (query.state.data?.inProcessing ? processingPollMs : false),
  });
}
