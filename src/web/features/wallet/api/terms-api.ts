import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MyTermsResponse } from '../../../../domain/schemas/terms';
import { apiFetch } from '../../../lib/api';
import { walletQueryKey } from './wallet-api';

/** Under the wallet's key: whatever refreshes the wallet refreshes the terms too. */
export const termsQueryKey = [...walletQueryKey, 'terms'] as const;

/** GET /api/wallet/terms: the statement the borrower signed, a change waiting for them, those accepted. */
export function useMyTerms() {
  return useQuery({
    queryKey: termsQueryKey,
    queryFn: () => apiFetch<MyTermsResponse>('/api/wallet/terms'),
  });
}

const changeUrl = (id: string, action: string) =>
  `/api/wallet/terms-changes/${encodeURIComponent(id)}/${action}`;

export function useSendTermsCode() {
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<{ resendAfterSeconds: number; expiresInSeconds: number }>(changeUrl(id, 'code'), {
        method: 'POST',
      }),
  });
}

/** Accept (with the code) or decline; either way the wallet and its terms are re-read. */
export function useAnswerTermsChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { id: string; answer: 'accept' | 'decline'; code?: string }) =>
      apiFetch<{ ok: true }>(changeUrl(input.id, input.answer), {
        method: 'POST',
        ...(input.answer === 'accept' ? { body: { code: input.code } } : {}),
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: walletQueryKey }),
  });
}
