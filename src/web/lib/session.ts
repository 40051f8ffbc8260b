import { type QueryClient, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useRef } from 'react';
import { can, type Permission } from '../../domain/permissions';
import type { ChangePasswordInput, LoginInput } from '../../domain/schemas/auth';
import type { MeResponse, UserDto } from '../../domain/schemas/user';
import { apiFetch, setCsrfToken } from './api';
import { clearFormDrafts, keepOnlyDraftsOf } from './draft-store';
import { followAccountLanguage } from './i18n';

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

/**
 * The signed-in user; only for screens behind the signed-in guard. When the session ends under a screen
 * (issue #32), a screen inside the lazily loaded back office may be drawn once more before the guard above
 * it sends the user to sign in: it gets the user it last had rather than failing (which left a blank page).
 */
export function useCurrentUser(): UserDto {
  const { data } = useSession();
  const last = useRef<UserDto | null>(null);
  if (data?.user) last.current = data.user;
  if (!last.current) throw new Error('useCurrentUser() used outside a signed-in route');
  return last.current;
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

/**
 * How this app's last session ended, per QueryClient (one per app, one per test): `ended` when a request
 * found it gone while the user was working (issue #32: sign-in then says so and goes back to the page), or
 * `logout`. Forgotten at the next sign-in.
 */
export type SignOutReason = 'ended' | 'logout';
const signOutReasons = new WeakMap<QueryClient, SignOutReason>();

/** A request answered UNAUTHENTICATED while a user was signed in (query-client.ts). */
export function noteSessionEnded(queryClient: QueryClient): void {
  if (queryClient.getQueryData<Session>(sessionQueryKey)?.user) signOutReasons.set(queryClient, 'ended');
}

/** Why nobody is signed in now, if this app knows; null on a visit that never had a session. */
export function useSignOutReason(): SignOutReason | null {
  return signOutReasons.get(useQueryClient()) ?? null;
}

/**
 * Every draft kept on this device but `keepUserId`'s (none at a sign-out): the small forms' at once, the
 * half-filled applications with their identity pictures through a module fetched only when it runs, so the
 * sign-in page does not carry it.
 */
function forgetDraftsBut(keepUserId?: string): void {
  if (keepUserId === undefined) clearFormDrafts();
  else keepOnlyDraftsOf(keepUserId);
  void import('./application-draft/forget')
    .then(({ forgetApplicationDrafts }) => forgetApplicationDrafts(keepUserId))
    .catch(() => {});
}

/** Signed out on purpose (logout, account closed): drafts go, and sign-in starts from the home page. */
function forgetSignedOut(queryClient: QueryClient): void {
  setCsrfToken(null);
  forgetDraftsBut();
  signOutReasons.set(queryClient, 'logout');
  queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
  queryClient.setQueryData(sessionQueryKey, signedOut);
}

/** Puts a new session in the cache: its CSRF token, and for a new sign-in nothing of the previous one. */
export function useSetSession(options: { newUser?: boolean } = {}) {
  const queryClient = useQueryClient();
  const { newUser = false } = options;
  return useCallback(
    (session: Session) => {
      setCsrfToken(session.csrfToken);
      if (newUser) {
        // Nothing cached for a previous user (e.g. after an expired session) may show for the next one, and
        // no other user's kept drafts stay on this device (a shared phone).
        queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
        signOutReasons.delete(queryClient);
        if (session.user) {
          forgetDraftsBut(session.user.id);
          followAccountLanguage(session.user.language);
        }
      }
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

/** Ends the server session, then forgets everything cached and kept (drafts) for this user. */
export function useLogout() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => apiFetch<{ ok: true }>('/api/auth/logout', { method: 'POST' }),
    onSuccess: () => forgetSignedOut(queryClient),
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
  return useCallback(() => forgetSignedOut(queryClient), [queryClient]);
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
