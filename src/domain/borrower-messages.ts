/*
 * The SMS a borrower is sent when something that matters to them changes (issue #36, docs/decisions/041):
 * what each one is about and whether the borrower may turn it off. Money that moved or is owed, and
 * anything the borrower must act on, always goes; the rest is the borrower's choice.
 */

/** `money`: money moved or owed; `action`: the borrower must do something; `optional`: may be turned off. */
export type BorrowerMessageClass = 'money' | 'action' | 'optional';

export const borrowerMessageClasses = {
  /** They withdraw it themselves: without the message an approved loan may wait unseen. */
  application_approved: 'action',
  application_declined: 'optional',
  payout_paid: 'money',
  /** The money they expect did not arrive, and the account may need correcting. */
  payout_failed: 'money',
  /** Nothing is approved or paid out until they accept or decline. */
  terms_proposed: 'action',
  payment_received: 'money',
  payment_reversed: 'money',
  loan_closed: 'money',
  credit_refunded: 'money',
  complaint_reply: 'optional',
  complaint_resolved: 'optional',
} as const satisfies Record<string, BorrowerMessageClass>;

export type BorrowerMessageKind = keyof typeof borrowerMessageClasses;
/** Whether the borrower's "optional messages off" setting stops this kind. */
export const isOptionalMessage = (kind: BorrowerMessageKind): boolean =>
  borrowerMessageClasses[kind] === 'optional';

/** The facts each message states; money in minor units, `reason` as staff wrote it (the text shortens it). */
export type BorrowerMessage =
  | { kind: 'application_approved'; loanNumber: string; amountMinor: number }
  | { kind: 'application_declined'; loanNumber: string; reason: string | null }
  | { kind: 'payout_paid'; loanNumber: string; sentMinor: number; accountLast4: string }
  | { kind: 'payout_failed'; loanNumber: string; amountMinor: number; reason: string | null }
  | { kind: 'terms_proposed'; loanNumber: string }
  | { kind: 'payment_received'; loanNumber: string; amountMinor: number; owedMinor: number }
  | { kind: 'payment_reversed'; loanNumber: string; amountMinor: number; reason: string | null }
  | { kind: 'loan_closed'; loanNumber: string; amountMinor: number; heldMinor: number }
  | { kind: 'credit_refunded'; loanNumber: string; amountMinor: number; reference: string }
  | { kind: 'complaint_reply' | 'complaint_resolved'; reference: string };
