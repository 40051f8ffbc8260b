import { z } from 'zod';
import { allocationDto } from './repayments';

/**
 * A way to pay as the wallet shows it (issue #32): the account to copy, and a QR Ph code to scan when the
 * lender set one up. `example`: the lender has not set this channel up yet (docs/decisions/037); borrowers
 * must not send money to it, and it has neither copy buttons nor a code.
 */
export const walletPaymentChannelDto = z.object({
  code: z.string(),
  name: z.string(),
  accountDetails: z.string(),
  /** The number alone, to paste into an app; null: the details are copied. */
  accountNumber: z.string().nullable(),
  instructions: z.string().nullable(),
  example: z.boolean(),
  /**
   * The QR Ph code (its text; the image is GET /api/wallet/payment-qr/:code): with the amount due now
   * when there is one up to `maxAmountMinor` (InstaPay's limit unless the lender set another), else the
   * borrower types the amount. Always with the loan number as the reference.
   */
  qr: z
    .object({ payload: z.string(), amountMinor: z.number().nullable(), maxAmountMinor: z.number() })
    .nullable(),
});
export type WalletPaymentChannelDto = z.infer<typeof walletPaymentChannelDto>;

/** `?format=` of the QR image: SVG on screen, PNG to save into the phone's gallery and upload to an app. */
export const paymentQrQuery = z.object({
  format: z.enum(['svg', 'png']).default('svg'),
  /** Changes with the code, so a browser never shows an older image: not read by the server. */
  v: z.string().max(16).optional(),
});

/** A payment received, as its receipt shows it (GET /api/wallet/payments/:id/receipt and staff's). */
export const paymentReceiptDto = z.object({
  receiptNumber: z.string(),
  repaymentId: z.string(),
  loanId: z.string(),
  loanNumber: z.string(),
  borrowerName: z.string(),
  amountMinor: z.number(),
  receivedOn: z.string(),
  /** The channel's code, and its name as configured (the code itself if it is no longer configured). */
  channel: z.string(),
  channelName: z.string(),
  reference: z.string(),
  recordedAt: z.string(),
  /** Where the money went (late charges, interest, principal, credit); null once reversed. */
  allocation: allocationDto.nullable(),
  reversal: z.object({ reason: z.string(), reversedAt: z.string() }).nullable(),
});
export type PaymentReceiptDto = z.infer<typeof paymentReceiptDto>;

/** A payout marked paid, as its receipt shows it: the principal borrowed, the fee taken, what was sent. */
export const payoutReceiptDto = z.object({
  receiptNumber: z.string(),
  disbursementId: z.string(),
  loanId: z.string(),
  loanNumber: z.string(),
  borrowerName: z.string(),
  requestedAt: z.string(),
  paidAt: z.string(),
  amountMinor: z.number(),
  feeMinor: z.number(),
  netMinor: z.number(),
  bankName: z.string(),
  accountNumberLast4: z.string(),
  reference: z.string(),
});
export type PayoutReceiptDto = z.infer<typeof payoutReceiptDto>;
