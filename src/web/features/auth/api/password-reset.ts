import { useMutation } from '@tanstack/react-query';
import type {
  ResetForgottenPasswordInput,
  SendPasswordResetCodeInput,
} from '../../../../domain/schemas/auth';
import { apiFetch } from '../../../lib/api';
import type { SignupCodeSent } from './signup';

/** "Forgot password?": a code by SMS to the account's phone (the answer is the same for any phone). */
export function useSendPasswordResetCode() {
  return useMutation({
    mutationFn: (input: SendPasswordResetCodeInput) =>
      apiFetch<SignupCodeSent>('/api/auth/password-reset/code', { method: 'POST', body: input }),
  });
}

/** Sets the new password with the code; every session of the account ends. */
export function useResetForgottenPassword() {
  return useMutation({
    mutationFn: (input: ResetForgottenPasswordInput) =>
      apiFetch<{ ok: true }>('/api/auth/password-reset', { method: 'POST', body: input }),
  });
}
