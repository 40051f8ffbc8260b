import { useMutation } from '@tanstack/react-query';
import type { SendSignupCodeInput, SignupInput } from '../../../../domain/schemas/auth';
import { apiFetch } from '../../../lib/api';

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

export function useSignup() {
  return useMutation({
    mutationFn: (input: SignupInput) =>
      apiFetch<{ ok: true }>('/api/auth/signup', { method: 'POST', body: input }),
  });
}
