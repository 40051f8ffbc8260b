import { z } from 'zod';

const amountRule = z.object({
  min: z.number().int().positive(),
  max: z.number().int().positive(),
  step: z.number().int().positive(),
});

/**
 * Where borrowers send repayments, as the lender configures it (PAYMENT_CHANNELS). `code` is what a
 * repayment record names; `accountDetails` is null until the lender fills it in, and a channel without
 * details is never shown to borrowers as a way to pay (they are told to contact support instead).
 */
export const paymentChannelSchema = z.strictObject({
  code: z
    .string()
    .regex(/^[a-z0-9][a-z0-9_-]{0,31}$/, { error: 'code must be 1–32 lowercase letters, digits, - or _' }),
  name: z.string().trim().min(1).max(80),
  accountDetails: z.string().trim().min(1).max(300).nullable().default(null),
  instructions: z.string().trim().min(1).max(500).nullable().default(null),
});
export type PaymentChannel = z.infer<typeof paymentChannelSchema>;

/**
 * GET /api/settings: what the web needs to show the lender's own figures (rate, fees, amounts) and
 * times (time zone) before any loan exists. Public: none of it is about a person.
 */
export const publicSettingsSchema = z.object({
  currency: z.string(),
  timeZone: z.string(),
  supportEmail: z.string(),
  /** Who to turn to when a complaint is not resolved (REGULATOR_CONTACT; issue #14). */
  regulatorContact: z.string(),
  loanProduct: z.object({
    currency: z.string(),
    borrowerAmount: amountRule,
    staffAmount: amountRule,
    termsMonths: z.array(z.number().int().positive()).min(1),
    defaultTermMonths: z.number().int().positive(),
    monthlyRateBp: z.number().int().nonnegative(),
    fees: z.object({ flatMinor: z.number().int().nonnegative(), percentBp: z.number().int().nonnegative() }),
    defaultCreditScore: z.number().int(),
  }),
  /** Days after a due date before an unpaid instalment is overdue, and the late charge (bp a month). */
  repayments: z.object({
    graceDays: z.number().int().nonnegative(),
    lateChargeMonthlyBp: z.number().int().nonnegative(),
  }),
  paymentChannels: z.array(paymentChannelSchema),
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

/** SPEC §6: the default time zone, used until the server's configured one is known. */
export const DEFAULT_TIME_ZONE = 'Asia/Manila';
