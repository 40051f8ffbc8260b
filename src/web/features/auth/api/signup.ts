import { useMutation } from '@tanstack/react-query';
import type { SendSignupCodeInput, SignupInput } from '../../../../domain/schemas/auth';
import { apiFetch } from '../../../lib/api';
import { currentLanguage } from '../../../lib/i18n';
import { type Session, useSetSession } from '../../../lib/session';

export interface SignupCodeSent {
  resendAfterSeconds: number;
  expiresInSeconds: number;
}

/**
 * Sends a sign-up code by SMS to the phone entered, written in the language the screen shows (issue #36):
 * the phone has no account yet to hold one.
 */
export function useSendSignupCode() {
  return useMutation({
    mutationFn: (input: SendSignupCodeInput) =>
      apiFetch<SignupCodeSent>('/api/auth/signup/code', {
        method: 'POST',
        body: { ...input, language: currentLanguage() },
      }),
  });
}

/**
 * Creates the account; the server signs the new borrower in (issue #32), so the session is set here. The
 * account keeps the screen's language: every SMS it is sent is written in it (issue #36).
 */
export function useSignup() {
  const setSession = useSetSession({ newUser: true });
  return useMutation({
    mutationFn: (input: SignupInput) =>
      apiFetch<Session>('/api/auth/signup', {
        method: 'POST',
        body: { ...input, language: currentLanguage() },
      }),
    onSuccess: setSession,
  });
}
