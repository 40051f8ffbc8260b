import { useQuery } from '@tanstack/react-query';
import type { AccountResponse } from '../../../../domain/schemas/wallet';
import { apiFetch } from '../../../lib/api';

export const accountQueryKey = ['account'] as const;

export function useAccount() {
  return useQuery({
    queryKey: accountQueryKey,
    queryFn: () => apiFetch<AccountResponse>('/api/account'),
  });
}
