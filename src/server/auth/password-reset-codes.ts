import type { CodeTarget } from './verification-codes';

/**
 * A password-reset code is bound to the account (its id as the code's context): a code sent to a phone
 * that has since moved to another account resets nobody. A phone without an account gets a code bound to
 * nothing, which is never sent.
 */
export function passwordResetTarget(phone: string, userId: string | null): CodeTarget {
  return { phone, purpose: 'password_reset', context: userId ?? '' };
}

export const passwordResetTexts = {
  /** "Forgot password?" on the login page. */
  forgotten: (code: string) =>
    `Hiram: your password reset code is ${code}. It expires in 5 minutes. We will never ask you for this code.`,
  /** A staff member reset the password (Loan Servicing): the borrower sets a new one with the code. */
  byStaff: (code: string) =>
    `Hiram: your password was reset at your request. To choose a new one, tap "Forgot password?" on the ` +
    `login page and enter this code: ${code}. It expires in 5 minutes; you can ask for a new one there. ` +
    'We will never ask you for this code.',
};
