import { z } from 'zod';

const amountRule = z.object({
  min: z.number().int().positive(),
  max: z.number().int().positive(),
  step: z.number().int().positive(),
});

/**
 * GET /api/settings: what the web needs to show the lender's own figures (rate, fees, amounts) and
 * times (time zone) before any loan exists. Public: none of it is about a person.
 */
export const publicSettingsSchema = z.object({
  currency: z.string(),
  timeZone: z.string(),
  supportEmail: z.string(),
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
});
export type PublicSettings = z.infer<typeof publicSettingsSchema>;

/** SPEC §6: the default time zone, used until the server's configured one is known. */
export const DEFAULT_TIME_ZONE = 'Asia/Manila';
