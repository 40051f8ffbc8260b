import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  RecoveryCodesResponse,
  SecurityResponse,
  TotpSetupResponse,
} from '../../../../domain/schemas/second-factor';
import { apiFetch, setCsrfToken } from '../../../lib/api';
import { type Session, sessionQueryKey, useForgetSession } from '../../../lib/session';

/** The signed-in staff member's second factors and open sessions (GET /api/account/security). */
export const securityQueryKey = ['account', 'security'] as const;

export function useSecurity() {
  return useQuery({
    queryKey: securityQueryKey,
    queryFn: () => apiFetch<SecurityResponse>('/api/account/security'),
  });
}

/** The session and the security page both change when a second factor is added or removed. */
function useRefreshSecurity() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: securityQueryKey }),
      queryClient.invalidateQueries({ queryKey: sessionQueryKey }),
    ]);
}

export function useStartTotp() {
  return useMutation({
    mutationFn: () => apiFetch<TotpSetupResponse>('/api/account/security/totp/setup', { method: 'POST' }),
  });
}

/**
 * Confirms the app with a current code; the answer holds the recovery codes, shown once. The Security page
 * and the session are refreshed only once they were seen (`useFinishEnrolment`), so the screen showing
 * them is not replaced while the user copies them.
 */
export function useConfirmTotp() {
  return useMutation({
    mutationFn: (code: string) =>
      apiFetch<RecoveryCodesResponse>('/api/account/security/totp/confirm', {
        method: 'POST',
        body: { code },
      }),
  });
}

export function useFinishEnrolment() {
  return useRefreshSecurity();
}

/** Puts the full session in the cache once the second factor was accepted. */
function useSetSignedIn() {
  const queryClient = useQueryClient();
  return (session: Session) => {
    setCsrfToken(session.csrfToken);
    queryClient.removeQueries({ predicate: (query) => query.queryKey[0] !== sessionQueryKey[0] });
    queryClient.setQueryData(sessionQueryKey, session);
  };
}

export function useVerifySecondFactor() {
  const setSignedIn = useSetSignedIn();
  return useMutation({
    mutationFn: (code: string) =>
      apiFetch<Session>('/api/auth/second-factor', { method: 'POST', body: { code } }),
    onSuccess: setSignedIn,
  });
}

/** Asks the browser for a passkey (the WebAuthn library loads only now) and finishes the sign-in. */
export function usePasskeySignIn() {
  const setSignedIn = useSetSignedIn();
  return useMutation({
    mutationFn: async () => {
      const { startAuthentication } = await import('@simplewebauthn/browser');
      const options = await apiFetch<Parameters<typeof startAuthentication>[0]['optionsJSON']>(
        '/api/auth/second-factor/passkey/options',
        { method: 'POST' },
      );
      const response = await startAuthentication({ optionsJSON: options });
      return apiFetch<Session>('/api/auth/second-factor/passkey', { method: 'POST', body: { response } });
    },
    onSuccess: setSignedIn,
  });
}

export function useAddPasskey() {
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: async (name: string) => {
      const { startRegistration } = await import('@simplewebauthn/browser');
      const options = await apiFetch<Parameters<typeof startRegistration>[0]['optionsJSON']>(
        '/api/account/security/passkeys/options',
        { method: 'POST' },
      );
      const response = await startRegistration({ optionsJSON: options });
      return apiFetch<{ ok: true }>('/api/account/security/passkeys', {
        method: 'POST',
        body: { name, response },
      });
    },
    onSuccess: refresh,
  });
}

export function useRemovePasskey() {
  const refresh = useRefreshSecurity();
  return useMutation({
    mutationFn: (id: string) =>
      apiFetch<{ ok: true }>(`/api/account/security/passkeys/${encodeURIComponent(id)}`, {
        method: 'DELETE',
      }),
    onSuccess: refresh,
  });
}

/** Ends every session of this user, this browser's too. */
export function useLogoutEverywhere() {
  // As a logout: nothing cached or kept (drafts) stays.
  const forgetSession = useForgetSession();
  return useMutation({
    mutationFn: () => apiFetch<{ ok: true }>('/api/auth/logout-everywhere', { method: 'POST' }),
    onSuccess: forgetSession,
  });
}
