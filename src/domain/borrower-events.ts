/**
 * Every kind of event the borrower's Updates list can show (issue #37), with its tone: how the list marks
 * it. The server writes only these kinds (`notifyBorrower`), the API declares them, and the web draws each
 * with one icon and the tone's colour and says it in four languages (wallet.history.*) — a new kind that
 * misses any of these does not compile.
 */
export const borrowerEventTones = {
  approved: 'good',
  rejected: 'bad',
  terms_changed: 'change',
  terms_change_proposed: 'change',
  terms_change_accepted: 'good',
  terms_change_declined: 'neutral',
  terms_change_withdrawn: 'neutral',
  on_hold: 'bad',
  released: 'good',
  bank_changed: 'change',
  credit_score_changed: 'change',
  message: 'message',
  disbursement_paid: 'good',
  disbursement_failed: 'bad',
  password_reset: 'neutral',
  repayment_received: 'good',
  credit_refunded: 'change',
  repayment_reversed: 'bad',
  loan_closed: 'good',
  loan_reopened: 'warning',
  payment_reminder: 'change',
} as const satisfies Record<string, BorrowerEventTone>;

/** Good news, bad news, a change to read, something that needs attention, staff's words, or neither. */
export type BorrowerEventTone = 'good' | 'bad' | 'change' | 'warning' | 'message' | 'neutral';
export type BorrowerEventKind = keyof typeof borrowerEventTones;
export const borrowerEventKinds = Object.keys(borrowerEventTones) as [
  BorrowerEventKind,
  ...BorrowerEventKind[],
];
