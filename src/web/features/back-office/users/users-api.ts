import type { z } from 'zod';
import type { createUserSchema, staffUserDto } from '../../../../domain/schemas/staff';
import { apiFetch } from '../../../lib/api';

export type StaffUser = z.infer<typeof staffUserDto>;
export type NewUser = z.input<typeof createUserSchema>;

const base = '/api/admin/users';
const one = (id: string) => `${base}/${encodeURIComponent(id)}`;

/** Adds a user with a temporary password they change at first login. */
export const createUser = (body: NewUser) => apiFetch<StaffUser>(base, { method: 'POST', body });

/** New phone and a new temporary password (must be changed at next login); the role only when given. */
export const updateUser = (id: string, body: { phone: string; password: string; role?: string }) =>
  apiFetch<StaffUser>(one(id), { method: 'POST', body });

export const resetUserPassword = (id: string, reason: string) =>
  apiFetch<{ temporaryPassword: string }>(`${one(id)}/reset-password`, { method: 'POST', body: { reason } });

/** Undoes a deactivation (a reason is required); returns a temporary password, changed at next login. */
export const reactivateUser = (id: string, reason: string) =>
  apiFetch<{ temporaryPassword: string }>(`${one(id)}/reactivate`, { method: 'POST', body: { reason } });

/** A user who owns applications, loans or history is deactivated instead of deleted (nothing lost). */
export const deleteUser = (id: string) =>
  apiFetch<{ outcome: 'deleted' | 'deactivated' }>(one(id), { method: 'DELETE' });

/** What to call a user on screen: the username, else the phone (borrowers have no username). */
export function userLabel(user: Pick<StaffUser, 'username' | 'phone' | 'id'>): string {
  return user.username ?? user.phone ?? user.id;
}
