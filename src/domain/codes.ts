/** One-time verification codes (SPEC §5): 6 digits, 5 minutes, 5 tries, resend after 60 s, single use. */
export const codePolicy = {
  length: 6,
  ttlSeconds: 5 * 60,
  maxAttempts: 5,
  resendAfterSeconds: 60,
} as const;

/** `terms_change`: the borrower accepts a staff change to their signed terms (docs/decisions/018). */
export const codePurposes = ['signup', 'withdrawal', 'password_reset', 'terms_change'] as const;
export type CodePurpose = (typeof codePurposes)[number];

export const codePattern = /^\d{6}$/;
