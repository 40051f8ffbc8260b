import type { UseMutationResult } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useNavigate } from 'react-router';
import type * as z from 'zod/mini';
import { formErrorsFromError, formErrorsFromIssues, type useFormErrors } from '../../../lib/form-errors';
import { notifySuccess } from '../../../lib/notify';
import { useResendCountdown } from '../../../lib/use-countdown';
import type { SignupCodeSent } from '../api/signup';
import { type AuthRules, authRulesFor } from './auth-rules';

/**
 * "Send code" on a phone form (sign-up, forgotten password): checks the phone with the shared schema (its
 * message under the field, not a form-wide alert), sends, starts the resend countdown, says where the code
 * went and moves to the code field. A refusal shows under its field; a server "too soon" restarts the wait.
 */
export function useSendPhoneCode(options: {
  mutation: UseMutationResult<SignupCodeSent, Error, { phone: string }>;
  /** The phone's rule among the signed-out forms' rules (fetched at the first input, `auth-rules`). */
  phoneRule: (rules: AuthRules) => z.ZodMiniType<{ phone: string }>;
  errors: ReturnType<typeof useFormErrors>;
  sentMessage: (phone: string) => string;
}) {
  const { mutation, phoneRule, errors, sentMessage } = options;
  const countdown = useResendCountdown();
  const codeInput = useRef<HTMLInputElement>(null);
  const send = async (phone: string) => {
    const rules = await authRulesFor(errors, 'INTERNAL');
    if (!rules) return;
    const parsed = phoneRule(rules).safeParse({ phone });
    if (!parsed.success) {
      errors.set({ top: null, fields: formErrorsFromIssues(parsed.error.issues).fields });
      return;
    }
    mutation.mutate(parsed.data, {
      onSuccess: (sent) => {
        errors.clearField('phone');
        countdown.sent(sent.resendAfterSeconds);
        notifySuccess(sentMessage(parsed.data.phone));
        codeInput.current?.focus();
      },
      onError: (error) => {
        const next = formErrorsFromError(error, 'INTERNAL');
        countdown.refused(next);
        errors.set(next);
      },
    });
  };
  return { send, countdown, codeInput, sending: mutation.isPending };
}

/** After a success message, on to /login once the reader has had time to read it. */
export function useGoToLoginAfter(done: boolean, delayMs: number) {
  const navigate = useNavigate();
  useEffect(() => {
    if (!done) return;
    const timer = setTimeout(() => navigate('/login', { replace: true }), delayMs);
    return () => clearTimeout(timer);
  }, [done, delayMs, navigate]);
}
