import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { MeResponse } from '../../../../domain/schemas/user';
import { sessionQueryKey } from '../../../app/query-client';
import { apiFetch, setCsrfToken } from '../../../lib/api';

/** POST /api/account/avatar {avatar: 1..5}; the answer replaces the session, so every avatar updates. */
export function useSaveStaffAvatar() {
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
