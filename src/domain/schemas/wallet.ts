import { z } from 'zod';
import { borrowerEventKinds } from '../borrower-events';
import { codePattern } from '../codes';
import { disbursementStatuses } from '../loan/disbursement-status';
import { loanStatuses } from '../loan/status';
import { parseWholeAmount } from '../loan/terms';
import { myApplicationDto } from './application';
import { limits } from './limits';
import { walletPaymentChannelDto } from './paying';
import { borrowerRepaymentDto, instalmentDto, loanPositionDto } from './repayments';
import { pageOf } from './staff';
import { text } from './text';

/** Whole pesos, typed as digits (thousands separators allowed); anything else is "Enter a valid amount". */
export const withdrawalAmount = z.preprocess(
  (value) => (typeof value === 'string' ? (parseWholeAmount(value) ?? Number.NaN) : value),
  z
    .number({ error: 'AMOUNT_INVALID' })
    .int({ error: 'AMOUNT_INVALID' })
    .min(1, { error: 'AMOUNT_INVALID' })
    .max(1_000_000_000, { error: 'AMOUNT_EXCEEDS_BALANCE' }),
);

/** The figures of the re-disclosure a withdrawal preview shows (`previewWithdrawal`, docs/decisions/010). */
export const withdrawalPreviewRequest = z.object({ amount: withdrawalAmount }, { error: 'AMOUNT_INVALID' });

/**
 * A code is only sent for figures the borrower was shown: `planDigest` is the one the preview answered.
 * Optional in the schema so a wrong amount or a paused loan is refused as such first; the use case refuses
 * a missing or outdated digest with WITHDRAWAL_PREVIEW_OUTDATED.
 */
export const withdrawalCodeRequest = z.object(
  { amount: withdrawalAmount, planDigest: z.string().trim().max(100).optional() },
  { error: 'AMOUNT_INVALID' },
);

export const paymentPlanFiguresDto = z.object({
  /** The payment of every instalment from `fromInstalment` on (the last may differ by rounding). */
  monthlyPaymentMinor: z.number(),
  fromInstalment: z.number().nullable(),
  fromDueDate: z.string().nullable(),
  totalRepayableMinor: z.number(),
  totalInterestMinor: z.number(),
  remainingToRepayMinor: z.number(),
  /** Interest, fees taken from payouts, and late charges so far. */
  totalCostMinor: z.number(),
  /** The effective annual rate of the actual cash flows: payouts net of fees, on their days (issue #31). */
  effectiveAnnualRate: z.string(),
});
export type PaymentPlanFiguresDto = z.infer<typeof paymentPlanFiguresDto>;

/**
 * The payment plan before and after a proposed withdrawal, as if it were paid out on `payoutOn` (today in
 * the lender's time zone). Withdrawals still being processed (`inProcessingMinor`) count as paid out that
 * day too. `before` is null when nothing is (or is about to be) paid out: the first withdrawal.
 */
export const withdrawalPreviewResponse = z.object({
  amountMinor: z.number(),
  /** The fee taken from this payout (the loan's fee terms), and what reaches the borrower's account. */
  feeMinor: z.number(),
  netMinor: z.number(),
  payoutOn: z.string(),
  termMonths: z.number(),
  inProcessingMinor: z.number(),
  before: paymentPlanFiguresDto.nullable(),
  after: paymentPlanFiguresDto,
  /** What the code request sends back: the code is bound to these `after` figures. */
  planDigest: z.string(),
});
export type WithdrawalPreviewResponse = z.infer<typeof withdrawalPreviewResponse>;

export const withdrawalRequest = z.object(
  {
    amount: withdrawalAmount,
    code: text({ error: 'CODE_REQUIRED' })
      .trim()
      .min(1, { error: 'CODE_REQUIRED', abort: true })
      .regex(codePattern, { error: 'WITHDRAWAL_CODE_INVALID' }),
    /** Chosen by the client once per attempt; a retried request with the same key changes nothing. */
    idempotencyKey: text()
      .trim()
      .min(8)
      .max(100)
      .regex(/^[A-Za-z0-9_-]+$/),
  },
  { error: 'AMOUNT_INVALID' },
);
export type WithdrawalRequest = z.infer<typeof withdrawalRequest>;

export const disbursementDto = z.object({
  id: z.string(),
  amountMinor: z.number(),
  /** Deducted from it (issue #31); the borrower is sent `netMinor`. */
  feeMinor: z.number(),
  netMinor: z.number(),
  status: z.enum(disbursementStatuses),
  bankName: z.string(),
  accountNumberLast4: z.string(),
  requestedAt: z.string(),
  decidedAt: z.string().nullable(),
  reference: z.string().nullable(),
  failureReason: z.string().nullable(),
});
export type DisbursementDto = z.infer<typeof disbursementDto>;

export const borrowerEventDto = z.object({
  id: z.number(),
  kind: z.enum(borrowerEventKinds),
  message: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  createdAt: z.string(),
});
export type BorrowerEventDto = z.infer<typeof borrowerEventDto>;

export const walletResponse = z.object({
  application: myApplicationDto.nullable(),
  canApply: z.boolean(),
  balance: z
    .object({ approvedMinor: z.number(), withdrawnMinor: z.number(), availableMinor: z.number() })
    .nullable(),
  inProcessing: z.boolean(),
  disbursements: z.array(disbursementDto),
  history: z.array(borrowerEventDto),
  /** The real schedule, from the money paid out (empty before the first payout). */
  schedule: z.array(instalmentDto),
  /**
   * Paying back, for a loan (null for an application): the position today (null before the first payout:
   * there is no schedule until money is paid out), repayments received, and how to pay — the channels with
   * account details the lender configured (none: contact support) and the loan number to quote.
   */
  repayment: z
    .object({
      position: loanPositionDto.nullable(),
      repayments: z.array(borrowerRepaymentDto),
      paymentReference: z.string(),
      paymentChannels: z.array(walletPaymentChannelDto),
      closedAt: z.string().nullable(),
      /** A closed loan: the day the payment that cleared it was received (as the statement says it). */
      paidInFullOn: z.string().nullable(),
      /** Money held for the borrower (paid above the payoff) that finance sent back, oldest first. */
      refunds: z.array(z.object({ amountMinor: z.number(), refundedOn: z.string(), reference: z.string() })),
    })
    .nullable(),
});
export type WalletResponse = z.infer<typeof walletResponse>;

export const staffDisbursementItem = z.object({
  id: z.string(),
  applicationId: z.string(),
  loanNumber: z.string(),
  fullName: z.string(),
  phone: z.string(),
  amountMinor: z.number(),
  /** The fee deducted from it; finance sends `netMinor`. */
  feeMinor: z.number(),
  netMinor: z.number(),
  bankName: z.string(),
  accountNumberLast4: z.string(),
  requestedAt: z.string(),
  status: z.enum(disbursementStatuses),
  reference: z.string().nullable(),
  failureReason: z.string().nullable(),
  decidedAt: z.string().nullable(),
  /** Who marked it paid or failed (username, or phone for a user without one); null while requested. */
  decidedBy: z.string().nullable(),
  loanStatus: z.enum(loanStatuses),
});
export type StaffDisbursementItem = z.infer<typeof staffDisbursementItem>;
export const staffDisbursementPage = pageOf(staffDisbursementItem);

/** The full payout account of one disbursement, as it was when requested (finance and admin; audited). */
export const disbursementDestination = z.object({
  id: z.string(),
  bankName: z.string(),
  accountNumber: z.string(),
});
export type DisbursementDestination = z.infer<typeof disbursementDestination>;

export const markPaidSchema = z.object(
  {
    reference: text({ error: 'REFERENCE_REQUIRED' })
      .trim()
      .min(1, { error: 'REFERENCE_REQUIRED', abort: true })
      .max(limits.payoutReference, { error: 'FIELD_TOO_LONG' }),
  },
  { error: 'REFERENCE_REQUIRED' },
);

/** What "My Account" shows: the borrower's own details from their latest application ("-" when absent). */
export const accountResponse = z.object({
  supportEmail: z.string(),
  creditScore: z.number().nullable(),
  profile: z
    .object({
      fullName: z.string(),
      idNumber: z.string(),
      phone: z.string(),
      email: z.string().nullable(),
      address: z.string(),
      companyName: z.string(),
      position: z.string(),
      incomeMinor: z.number(),
      monthlyExpenseMinor: z.number(),
      contactName: z.string(),
      contactPhone: z.string(),
      contactRelation: z.string(),
      bankName: z.string(),
      accountNumberLast4: z.string(),
    })
    .nullable(),
  loan: z
    .object({
      loanNumber: z.string(),
      status: z.enum(loanStatuses),
      amountMinor: z.number(),
      approvedAmountMinor: z.number().nullable(),
      termMonths: z.number(),
      monthlyPaymentMinor: z.number(),
      submittedAt: z.string(),
      decidedAt: z.string().nullable(),
    })
    .nullable(),
  /**
   * Every application and loan of the borrower, newest first (issue #31: repeat loans): what was asked for,
   * under which product, and how it ended.
   */
  loans: z.array(
    z.object({
      loanNumber: z.string(),
      status: z.enum(loanStatuses),
      amountMinor: z.number(),
      approvedAmountMinor: z.number().nullable(),
      termMonths: z.number(),
      submittedAt: z.string(),
      closedAt: z.string().nullable(),
      /** The product's name in every language; null for a loan signed before products existed. */
      productNames: z.object({ en: z.string(), fil: z.string(), zh: z.string(), km: z.string() }).nullable(),
    }),
  ),
});
export type AccountResponse = z.infer<typeof accountResponse>;

export const avatarSchema = z.object(
  {
    avatar: z
      .number({ error: 'AVATAR_INVALID' })
      .int({ error: 'AVATAR_INVALID' })
      .min(1, { error: 'AVATAR_INVALID' })
      .max(5, { error: 'AVATAR_INVALID' }),
  },
  { error: 'AVATAR_INVALID' },
);
