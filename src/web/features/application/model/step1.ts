import { todayIn } from '../../../../domain/date-text';
import type { Language } from '../../../../domain/languages';
import { isOnRule } from '../../../../domain/loan/amount-rule';
// Each from its own module, not the domain/loan barrel: the barrel's status machine (built at import, so never
// shaken out) brought the English error catalogue into step 1 (~4.6 KiB gzip).
import { buildDisclosure } from '../../../../domain/loan/build-disclosure';
import type { Disclosure } from '../../../../domain/loan/disclosure';
import type { LoanTerms } from '../../../../domain/loan/loan-terms';
import { toMinor } from '../../../../domain/money';
import type { OfferedProduct } from '../../../../domain/schemas/offered-products';
import type { Step1Data } from './step1-data';

// No zod here: step 1's page imports this module, and its first load fetches none (docs/decisions/052). The
// shape of what step 1 hands on is checked in step1-data.ts.
export type { Step1Data };

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
