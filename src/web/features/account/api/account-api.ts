import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ComplaintCategory,
  MyComplaintDto,
  MyComplaintsResponse,
} from '../../../../domain/schemas/complaints';
import type { SmsPreferences } from '../../../../domain/schemas/user';
import type { AccountResponse } from '../../../../domain/schemas/wallet';
import { apiFetch } from '../../../lib/api';

export const accountQueryKey = ['account'] as const;

export function useAccount() {
  return useQuery({
    queryKey: accountQueryKey,
    queryFn: () => apiFetch<AccountResponse>('/api/account'),
  });
}

const complaintsQueryKey = ['complaints'] as const;

/** The borrower's own complaints, with status, replies and resolution (GET /api/complaints). */
export function useMyComplaints() {
  return useQuery({
    queryKey: complaintsQueryKey,
    queryFn: ({ signal }) => apiFetch<MyComplaintsResponse>('/api/complaints', { signal }),
  });
}

/** Files a complaint (multipart: category, text, optional picture); answers it with its reference. */
export function useFileComplaint() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { category: ComplaintCategory; text: string; picture: File | null }) => {
      const form = new FormData();
      form.set('category', input.category);
      form.set('text', input.text);
      if (input.picture) form.set('picture', input.picture);
      return apiFetch<MyComplaintDto>('/api/complaints', { method: 'POST', body: form });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: complaintsQueryKey }),
  });
}

const smsPreferencesKey = ['account', 'sms-preferences'] as const;

/** Whether the borrower gets the SMS they may turn off (docs/decisions/041). */
export function useSmsPreferences() {
  return useQuery({
    queryKey: smsPreferencesKey,
    queryFn: ({ signal }) => apiFetch<SmsPreferences>('/api/account/sms-preferences', { signal }),
  });
}

/** Turns the optional SMS off or on; the answer is the stored setting. */
export function useSetSmsPreferences() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: SmsPreferences) =>
      apiFetch<SmsPreferences>('/api/account/sms-preferences', { method: 'POST', body: input }),
    onSuccess: (stored) => queryClient.setQueryData(smsPreferencesKey, stored),
  });
}
