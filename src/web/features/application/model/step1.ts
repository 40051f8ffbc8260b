import * as z from 'zod/mini';
import { todayIn } from '../../../../domain/date-text';
import type { Language } from '../../../../domain/languages';
// Each from its own module, not the domain/loan barrel: the barrel's status machine (built at import, so never
// shaken out) brought the English error catalogue into step 1 (~4.6 KiB gzip).
import { buildDisclosure, type Disclosure } from '../../../../domain/loan/disclosure';
import type { LoanTerms } from '../../../../domain/loan/loan-terms';
import { isOnRule } from '../../../../domain/loan/terms';
import { toMinor } from '../../../../domain/money';
import type { OfferedProduct } from '../../../../domain/schemas/offered-products';

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

/**
 * The offered product step-1 data (perhaps from an old draft) was made for, if it is still offered with the
 * same version and still allows its amount and term; null sends the borrower back to step 1.
 */
export function offeredFor(step1: Step1Data, offered: readonly OfferedProduct[]): OfferedProduct | null {
  const product = step1.productVersionId
    ? offered.find((p) => p.versionId === step1.productVersionId)
    : offered.length === 1
      ? offered[0]
      : undefined;
  if (!product) return null;
  return isOnRule(step1.amount, product.borrowerAmount) && product.termsMonths.includes(step1.termMonths)
    ? product
    : null;
}

/** The terms a loan signed under this offered product keeps (as the server's `loanTermsOfVersion`). */
export function offeredLoanTerms(product: OfferedProduct): LoanTerms {
  return {
    monthlyRateBp: product.monthlyRateBp,
    fees: { ...product.fees },
    lateChargeMonthlyBp: product.lateChargeMonthlyBp,
    graceDays: product.graceDays,
    rounding: 'half_up_per_instalment',
  };
}

/**
 * The full disclosure for whole pesos and a term, with the same domain math and the same product version
 * (GET /api/products) the server quotes with.
 */
export function estimateDisclosure(
  amount: number,
  termMonths: number,
  settings: { product: OfferedProduct; currency: string; timeZone: string },
  now: Date = new Date(),
): Disclosure {
  return buildDisclosure({
    amountMinor: toMinor(amount),
    termMonths,
    currency: settings.currency,
    terms: offeredLoanTerms(settings.product),
    startDate: todayIn(settings.timeZone, now),
  });
}

/** A product's name in the reader's language. */
export function productName(product: { names: Record<Language, string> }, language: string): string {
  return (product.names as Record<string, string>)[language] ?? product.names.en;
}
