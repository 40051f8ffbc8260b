import { useMutation, useQuery } from '@tanstack/react-query';
import type { CloseAccountResponse, ConsentList, MyDocumentList } from '../../../../domain/schemas/privacy';
import { apiFetch } from '../../../lib/api';

/** Everything held about the borrower, as a ZIP (streamed by the server; the browser saves it). */
export const exportUrl = '/api/account/export.zip';

export function useMyDocuments() {
  return useQuery({
    queryKey: ['account', 'documents'] as const,
    queryFn: () => apiFetch<MyDocumentList>('/api/account/documents'),
  });
}

export function useMyConsents() {
  return useQuery({
    queryKey: ['account', 'consents'] as const,
    queryFn: () => apiFetch<ConsentList>('/api/account/consents'),
  });
}

/** Closes the borrower's own account (confirmed with the password); the server ends every session. */
export function useCloseAccount() {
  return useMutation({
    mutationFn: (password: string) =>
      apiFetch<CloseAccountResponse>('/api/account/close', { method: 'POST', body: { password } }),
  });
}
