import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse } from '../../../../domain/schemas/user';
import type { AccountResponse } from '../../../../domain/schemas/wallet';
import { sessionQueryKey } from '../../../app/query-client';
import { apiFetch, setCsrfToken } from '../../../lib/api';

export const accountQueryKey = ['account'] as const;

export function useAccount() {
  return useQuery({
    queryKey: accountQueryKey,
    queryFn: () => apiFetch<AccountResponse>('/api/account'),
  });
}

/**
 * Saves the chosen preset avatar (any signed-in user) and puts the answer in the session cache, so every
 * place showing the avatar updates. Saves run one after another, so the last choice is the one kept.
 */
export function useSetAvatar() {
  const queryClient = useQueryClient();
  return useMutation({
    scope: { id: 'avatar' },
    mutationFn: (avatar: number) =>
      apiFetch<MeResponse>('/api/account/avatar', { method: 'POST', body: { avatar } }),
    onSuccess: (session) => {
      setCsrfToken(session.csrfToken);
      queryClient.setQueryData(sessionQueryKey, session);
    },
  });
}
