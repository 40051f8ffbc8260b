import { useMutation } from '@tanstack/react-query';
import type { SendSignupCodeInput, SignupInput } from '../../../../domain/schemas/auth';
import { apiFetch } from '../../../lib/api';
import { type Session, useSetSession } from '../../../lib/session';

export interface SignupCodeSent {
  resendAfterSeconds: number;
  expiresInSeconds: number;
}

/** Sends a sign-up code by SMS to the phone entered. */
export function useSendSignupCode() {
  return useMutation({
    mutationFn: (input: SendSignupCodeInput) =>
      apiFetch<SignupCodeSent>('/api/auth/signup/code', { method: 'POST', body: input }),
  });
}

/** Creates the account; the server signs the new borrower in (issue #32), so the session is set here. */
export function useSignup() {
  const setSession = useSetSession({ newUser: true });
  return useMutation({
    mutationFn: (input: SignupInput) =>
      apiFetch<Session>('/api/auth/signup', { method: 'POST', body: input }),
    onSuccess: setSession,
  });
}
