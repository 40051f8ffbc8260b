import { z } from 'zod';
import { loanStatuses } from '../loan/status';
import { civilDate } from './dates';
import { limits } from './limits';
import { reasonSchema } from './staff';
import { text } from './text';

/**
 * Pesos with up to two decimals ("1,250.50", 1250.5) as exact centavos; null when it is not such an amount.
 * Parsed from the text, never through float arithmetic.
 */
export function parsePesosToMinor(value: unknown): number | null {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const match = /^(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?$/.exec(text);
  if (!match) return null;
  const pesos = Number((match[1] ?? '').replaceAll(',', ''));
  const centavos = Number((match[2] ?? '').padEnd(2, '0'));
  const minor = pesos * 100 + centavos;
  return Number.isSafeInteger(minor) ? minor : null;
}

const isoDate = civilDate('REPAYMENT_DATE_INVALID');

/** Finance records money received for a loan (POST /api/staff/loans/:id/repayments). */
export const recordRepaymentSchema = z.object(
  {
    amount: z.preprocess(
      (value) => parsePesosToMinor(value) ?? Number.NaN,
      z
        .number({ error: 'REPAYMENT_AMOUNT_INVALID' })
        .int({ error: 'REPAYMENT_AMOUNT_INVALID' })
        .min(1, { error: 'REPAYMENT_AMOUNT_INVALID' })
        .max(100_000_000_000, { error: 'REPAYMENT_AMOUNT_INVALID' }),
    ),
    receivedOn: isoDate,
    channel: text({ error: 'PAYMENT_CHANNEL_INVALID' }).min(1, { error: 'PAYMENT_CHANNEL_INVALID' }),
    reference: text({ error: 'REFERENCE_REQUIRED' })
      .trim()
      .min(1, { error: 'REFERENCE_REQUIRED', abort: true })
      .max(limits.repaymentReference, { error: 'FIELD_TOO_LONG' }),
  },
  { error: 'VALIDATION_FAILED' },
);
export type RecordRepaymentInput = z.infer<typeof recordRepaymentSchema>;

export const reverseRepaymentSchema = z.object({ reason: reasonSchema }, { error: 'REASON_REQUIRED' });

/** Finance sends back money held for the borrower (POST /api/staff/loans/:id/refunds): amount and transfer. */
export const refundCreditSchema = z.object(
  {
    amount: recordRepaymentSchema.shape.amount,
    reference: recordRepaymentSchema.shape.reference,
  },
  { error: 'REPAYMENT_AMOUNT_INVALID' },
);
export type RefundCreditInput = z.infer<typeof refundCreditSchema>;

export const instalmentStates = ['paid', 'part_paid', 'due', 'overdue', 'upcoming'] as const;

/** One scheduled instalment: what is due when, and how it splits. */
export const instalmentDto = z.object({
  number: z.number(),
  dueDate: z.string(),
  paymentMinor: z.number(),
  principalMinor: z.number(),
  interestMinor: z.number(),
  balanceMinor: z.number(),
});

/** One instalment as it stands today (docs/decisions/010): figures of instalments not yet due may change. */
export const instalmentPositionDto = instalmentDto.extend({
  paidMinor: z.number(),
  unpaidMinor: z.number(),
  status: z.enum(instalmentStates),
  daysPastDue: z.number(),
  /** Paid in full before its due date (by a payment ahead, or settled by the payoff): that day. */
  settledEarlyOn: z.string().nullable(),
});
export type InstalmentPositionDto = z.infer<typeof instalmentPositionDto>;

export const allocationDto = z.object({
  lateChargesMinor: z.number(),
  interestMinor: z.number(),
  principalMinor: z.number(),
  advanceMinor: z.number(),
  prepaidPrincipalMinor: z.number(),
  overpaymentMinor: z.number(),
});

/** What a loan owes today, derived from its records. */
export const loanPositionDto = z.object({
  asOf: z.string(),
  startDate: z.string().nullable(),
  principalPaidOutMinor: z.number(),
  outstandingPrincipalMinor: z.number(),
  interestDueMinor: z.number(),
  interestAccruedMinor: z.number(),
  lateChargesDueMinor: z.number(),
  paidAheadMinor: z.number(),
  overpaidMinor: z.number(),
  /** Held for the borrower now (received above the payoff, less what finance refunded; issue #31). */
  creditMinor: z.number(),
  refundedMinor: z.number(),
  payoffMinor: z.number(),
  /** Pay this to be up to date: late charges and every instalment fallen due, unpaid (issue #32). */
  amountDueNowMinor: z.number(),
  levelPaymentMinor: z.number(),
  nextPayment: z.object({ number: z.number(), dueDate: z.string(), amountMinor: z.number() }).nullable(),
  daysPastDue: z.number(),
  overdueMinor: z.number(),
  graceDays: z.number(),
  lateChargeMonthlyBp: z.number(),
  schedule: z.array(instalmentPositionDto),
});
export type LoanPositionDto = z.infer<typeof loanPositionDto>;

/** A repayment as the borrower sees it in their history. */
export const borrowerRepaymentDto = z.object({
  id: z.string(),
  amountMinor: z.number(),
  receivedOn: z.string(),
  channel: z.string(),
  reference: z.string(),
  reversed: z.boolean(),
  allocation: allocationDto.nullable(),
  /** Why and when it was reversed (the staff ledger adds who). */
  reversal: z.object({ reason: z.string(), reversedAt: z.string() }).nullable(),
});

/** A repayment in the staff ledger: who recorded it, where it went, and its reversal if any. */
export const ledgerRepaymentDto = borrowerRepaymentDto.extend({
  source: z.enum(['staff', 'webhook']),
  recordedBy: z.string().nullable(),
  recordedAt: z.string(),
  reversal: z
    .object({ reason: z.string(), reversedBy: z.string().nullable(), reversedAt: z.string() })
    .nullable(),
});

export const loanLedgerDto = z.object({
  loanId: z.string(),
  loanNumber: z.string(),
  status: z.enum(loanStatuses),
  closedAt: z.string().nullable(),
  position: loanPositionDto,
  repayments: z.array(ledgerRepaymentDto),
});
export type LoanLedgerDto = z.infer<typeof loanLedgerDto>;
