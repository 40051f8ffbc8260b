import * as z from 'zod/mini';

/**
 * What step 1 hands to step 2 (SPEC §2.4): through router state and the saved draft. Only its shape is
 * checked here; the amount and term rules are the product version's, which the server checks again on every
 * quote and submission. A draft saved before products existed has no product: step 2 then takes the one
 * product offered, or sends the borrower back to choose.
 */
export const step1DataSchema = z.object({
  phone: z.string().check(z.minLength(1)),
  amount: z.int().check(z.positive()),
  termMonths: z.int().check(z.positive()),
  monthlyPaymentMinor: z.int().check(z.positive()),
  productId: z.optional(z.string()),
  productVersionId: z.optional(z.string()),
});
export type Step1Data = z.infer<typeof step1DataSchema>;

/** Router state of /loan/info, or null when it is missing or not what step 1 sends. */
export function step1FromState(state: unknown): Step1Data | null {
  const parsed = z.object({ step1: step1DataSchema }).safeParse(state);
  return parsed.success ? parsed.data.step1 : null;
}
