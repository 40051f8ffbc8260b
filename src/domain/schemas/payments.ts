import { z } from 'zod';
import { loanStatuses } from '../loan/status';
import { instant } from './dates';
import { limits } from './limits';
import { listQuerySchema, pageOf, reasonSchema } from './staff';
import { text } from './text';

/** Why a provider payment was kept aside instead of becoming a repayment. */
export const unappliedReasons = [
  'unknown_reference',
  'loan_not_running',
  'before_payout',
  'over_payment',
  /** The provider's reference was already received with another amount (issue #33): finance checks. */
  'reference_conflict',
  /** The payer's reference or the memo names more than one loan (issue #32): nothing applied by a guess. */
  'ambiguous_reference',
] as const;
export type UnappliedReason = (typeof unappliedReasons)[number];
export const unappliedStatuses = ['open', 'applied', 'returned'] as const;
export type UnappliedStatus = (typeof unappliedStatuses)[number];

/**
 * What the payment provider posts to POST /api/payments/webhook (the body the signature covers). Amounts are
 * integer centavos so nothing is rounded; the payer quotes the loan number as the payment reference.
 */
export const paymentWebhookPayload = z
  .object({
    reference: text()
      .trim()
      .min(1)
      .max(limits.repaymentReference)
      .describe("The provider's own unique id for this payment; a redelivery carries the same one"),
    paymentReference: text()
      .max(limits.repaymentReference)
      .describe(
        'The reference the payer gave: the loan number (e.g. HL-26-000123), written any way (HL26000123, hl 26 123, 26-000123), or a short text that contains it',
      ),
    amountMinor: z.number().int().min(1).max(100_000_000_000).describe('Amount received in centavos'),
    currency: z.literal('PHP'),
    receivedAt: instant('VALIDATION_FAILED').describe('When the provider received the money (ISO 8601)'),
    payerName: text().max(200).optional(),
    payerPhone: text()
      .max(40)
      .optional()
      .describe(
        "The payer's mobile number as the provider has it (any common writing); only suggests a loan",
      ),
    memo: text()
      .max(1000)
      .optional()
      .describe("The payer's message, if the provider passes one on; a loan number written in it is read"),
  })
  .describe('A payment received by the provider');
export type PaymentWebhookPayload = z.infer<typeof paymentWebhookPayload>;

export const paymentWebhookHeaders = z.object({
  'x-hiram-timestamp': text().describe('Unix time in seconds when the provider signed the request'),
  'x-hiram-signature': text().describe(
    '"sha256=" + hex HMAC-SHA256, keyed with PAYMENTS_WEBHOOK_SECRET, of "<timestamp>.<raw body>"',
  ),
});

export const paymentWebhookOutcome = z.object({
  outcome: z.enum(['applied', 'unapplied']),
  /** The repayment (applied) or the unapplied payment kept for finance. */
  id: z.string(),
  reason: z.enum(unappliedReasons).nullable(),
  loanStatus: z.enum(loanStatuses).nullable(),
});
export type PaymentWebhookOutcome = z.infer<typeof paymentWebhookOutcome>;

/**
 * Why a kept payment is suggested for a loan (issue #32, docs/decisions/038), strongest first: the loan
 * number written in the reference or memo (read forgivingly), the payer's phone is a borrower's with a
 * running loan, or the amount equals what the loan had due on the payment's date or an instalment falling
 * due near it. A suggestion is never applied by itself: finance confirms it.
 */
export const suggestionBases = ['reference', 'phone', 'amount'] as const;

export const loanSuggestion = z.object({
  loanId: z.string(),
  loanNumber: z.string(),
  fullName: z.string(),
  basis: z.enum(suggestionBases),
  /** `amount`: the due date of the amount it matches; otherwise null. */
  on: z.string().nullable(),
});
export type LoanSuggestion = z.infer<typeof loanSuggestion>;

export const unappliedPaymentItem = z.object({
  id: z.string(),
  provider: z.string(),
  providerReference: z.string(),
  amountMinor: z.number(),
  receivedAt: z.string(),
  payerReference: z.string(),
  payerName: z.string().nullable(),
  /** What the provider sent besides the reference, when it did. */
  payerPhone: z.string().nullable(),
  memo: z.string().nullable(),
  reason: z.enum(unappliedReasons),
  /** `reference_conflict`: what the earlier delivery of this provider reference carried. */
  earlierAmountMinor: z.number().nullable(),
  status: z.enum(unappliedStatuses),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
  resolutionNote: z.string().nullable(),
  appliedRepaymentId: z.string().nullable(),
  appliedLoanNumber: z.string().nullable(),
  /** Open payments only: the loan it likely belongs to, and why (null when nothing points to one loan). */
  suggestion: loanSuggestion.nullable(),
});
export const unappliedPaymentsPage = pageOf(unappliedPaymentItem);
export const unappliedListQuery = z.object({ page: listQuerySchema.shape.page });

/** Finance applies a kept payment to a loan, named by its loan number or id. */
export const applyUnappliedSchema = z.object(
  {
    loan: text({ error: 'LOAN_NOT_FOUND' })
      .trim()
      .min(1, { error: 'LOAN_NOT_FOUND', abort: true })
      .max(100, { error: 'LOAN_NOT_FOUND' }),
  },
  { error: 'VALIDATION_FAILED' },
);

/** Money sent back to the payer: the reason (how and why) is required. */
export const returnUnappliedSchema = z.object({ reason: reasonSchema }, { error: 'REASON_REQUIRED' });

export const repaymentListQuery = listQuerySchema.extend({
  /** Loan number or payment reference, "contains", case-insensitive. */
  q: text().trim().max(limits.repaymentReference).optional().default(''),
});
export type RepaymentListQuery = z.infer<typeof repaymentListQuery>;

export const repaymentListItem = z.object({
  id: z.string(),
  loanId: z.string(),
  loanNumber: z.string(),
  fullName: z.string(),
  phone: z.string(),
  amountMinor: z.number(),
  receivedOn: z.string(),
  channel: z.string(),
  reference: z.string(),
  source: z.enum(['staff', 'webhook']),
  recordedAt: z.string(),
  reversed: z.boolean(),
});
export const repaymentsPage = pageOf(repaymentListItem);
