import { type QueryClient, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import type { createUserSchema, staffUserDto } from '../../../../domain/schemas/staff';
import { apiFetch } from '../../../lib/api';
import { refreshAfterUserChange } from '../../../lib/staff/queries';
import { useStaffMutation } from '../../../lib/staff/use-staff-mutation';

export type StaffUser = z.infer<typeof staffUserDto>;
export type NewUser = z.input<typeof createUserSchema>;

const base = '/api/admin/users';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;
const refresh = (queryClient: QueryClient) => refreshAfterUserChange(queryClient);

/** Adds a user with a temporary password they change at first login. */
export function useCreateUser() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: NewUser) => apiFetch<StaffUser>(base, { method: 'POST', body }),
    onSuccess: () => refresh(queryClient),
  });
}

/** New phone and a new temporary password (must be changed at next login); the role only when given. */
export function useUpdateUser() {
  return useStaffMutation({
    mutationFn: ({ id, ...body }: { id: string; phone: string; password: string; role?: string }) =>
      apiFetch<StaffUser>(one(id), { method: 'POST', body }),
    refresh,
  });
}

/** A temporary password, shown once; the user's sessions end. */
export function useResetUserPassword() {
  return useStaffMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiFetch<{ temporaryPassword: string }>(`${one(id)}/reset-password`, {
        method: 'POST',
        body: { reason },
      }),
    refresh,
  });
}

/** Undoes a deactivation (a reason is required); a temporary password, changed at next login. */
export function useReactivateUser() {
  return useStaffMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiFetch<{ temporaryPassword: string }>(`${one(id)}/reactivate`, { method: 'POST', body: { reason } }),
    refresh,
  });
}

/** Ends a login lockout at once (the failed logins are forgotten); audited. */
export function useUnlockUser() {
  return useStaffMutation({
    mutationFn: (id: string) => apiFetch<StaffUser>(`${one(id)}/unlock`, { method: 'POST' }),
    refresh,
  });
}

/** Removes a staff member's authenticator app, recovery codes and passkeys (a reason is required). */
export function useResetSecondFactor() {
  return useStaffMutation({
    mutationFn: ({ id, reason }: { id: string; reason: string }) =>
      apiFetch<{ ok: true }>(`${one(id)}/reset-second-factor`, { method: 'POST', body: { reason } }),
    refresh,
  });
}

/** A user who owns applications, loans or history is deactivated instead of deleted (nothing lost). */
export function useDeleteUser() {
  return useStaffMutation({
    mutationFn: (id: string) =>
      apiFetch<{ outcome: 'deleted' | 'deactivated' }>(one(id), { method: 'DELETE' }),
    refresh,
  });
}

/** What to call a user on screen: the username, else the phone (borrowers have no username). */
export function userLabel(user: Pick<StaffUser, 'username' | 'phone' | 'id'>): string {
  return user.username ?? user.phone ?? user.id;
}
