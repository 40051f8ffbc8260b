import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { can, type Permission } from '../../domain/permissions';
import type { ChangePasswordInput, LoginInput } from '../../domain/schemas/auth';
import type { MeResponse, UserDto } from '../../domain/schemas/user';
import { apiFetch, setCsrfToken } from './api';

/** The session's TanStack Query key; every other query is dropped when the user changes. */
export const sessionQueryKey = ['session'] as const;

export type Session = MeResponse;
export const signedOut: Session = { user: null, csrfToken: null };

async function fetchSession(): Promise<Session> {
  const session = await apiFetch<Session>('/api/me');
  setCsrfToken(session.csrfToken);
  return session;
}

/** The session restored from the cookie on load (GET /api/me); kept until login, logout or a 401. */
export const sessionQuery = queryOptions({
  queryKey: sessionQueryKey,
  queryFn: fetchSession,
  staleTime: Number.POSITIVE_INFINITY,
});

export function useSession() {
  return useQuery(sessionQuery);
}

/** The signed-in user; only for screens behind the signed-in guard. */
export function useCurrentUser(): UserDto {
  const { data } = useSession();
  if (!data?.user) throw new Error('useCurrentUser() used outside a signed-in route');
  return data.user;
}

/**
 * `can(action)` for the signed-in user, from the domain permission table (SPEC §1). Screens only hide what
 * the server would refuse anyway.
 */
export function useCan(): (action: Permission) => boolean {
  const { data } = useSession();
  const role = data?.user?.role;
  return useCallback((action: Permission) => can(role, action), [role]);
}

/** Where a user lands: staff on the back office, borrowers on their loan. */
export function homePath(user: Pick<UserDto, 'role'>): string {
  return can(user.role, 'backOffice.view') ? '/admin/home' : '/loan';
}

function useSetSession(options: { newUser?: boolean } = {}) {
  const queryClient = useQueryClient();
  const { newUser = false } = options;
  return useCallback(
    (session: Session) => {
      setCsrfToken(session.csrfToken);
      // Nothing cached for a previous user (e.g. after an expired session) may show for the next one.
      if (newUser)
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
      queryClient.setQueryData(sessionQueryKey, session);
    },
    [queryClient, newUser],
  );
}

export function useLogin() {
  const setSession = useSetSession({ newUser: true });
  return useMutation({
    mutationFn: (input: LoginInput) => apiFetch<Session>('/api/auth/login', { method: 'POST', body: input }),
    onSuccess: setSession,
  });
}

/** Ends the server session, then forgets everything cached for this user. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ ok: true }>('/api/auth/logout', { method: 'POST' }),
    onSuccess: () => {
      setCsrfToken(null);
      queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
      queryClient.setQueryData(sessionQueryKey, signedOut);
    },
  });
}

export function useChangePassword() {
  const setSession = useSetSession();
  return useMutation({
    mutationFn: (input: ChangePasswordInput) =>
      apiFetch<Session>('/api/auth/password', { method: 'POST', body: input }),
    onSuccess: setSession,
  });
}

/** Agrees to the privacy notice in force (after the lender published a new version); the session follows. */
export function useAgreeToPrivacyNotice() {
  const setSession = useSetSession();
  return useMutation({
    mutationFn: (privacyNoticeVersion: string) =>
      apiFetch<Session>('/api/account/consent', { method: 'POST', body: { privacyNoticeVersion } }),
    onSuccess: setSession,
  });
}

/** After the account is closed (its sessions ended on the server): forget everything, as a logout does. */
export function useForgetSession() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    setCsrfToken(null);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    queryClient.setQueryData(sessionQueryKey, signedOut);
  }, [queryClient]);
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
      apiFetch<Session>('/api/account/avatar', { method: 'POST', body: { avatar } }),
    onSuccess: (session) => {
      setCsrfToken(session.csrfToken);
      queryClient.setQueryData(sessionQueryKey, session);
    },
  });
}
