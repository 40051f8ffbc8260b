import type { CodeTarget } from './verification-codes';

/**
 * A password-reset code is bound to the account (its id as the code's context): a code sent to a phone
 * that has since moved to another account resets nobody. A phone without an account gets a code bound to
 * nothing, which is never sent.
 */
export function passwordResetTarget(phone: string, userId: string | null): CodeTarget {
  return { phone, purpose: 'password_reset', context: userId ?? '' };
}
