import * as z from 'zod/mini';
import type { FeeCollection } from '../loan/loan-terms';

// zod/mini: step 1 reads this on a borrower's first load (docs/decisions/023).
const positiveInt = () => z.int().check(z.positive());
const nonNegativeInt = () => z.int().check(z.nonnegative());
const amountRule = z.object({ min: positiveInt(), max: positiveInt(), step: positiveInt() });

/**
 * GET /api/products: a loan product offered to the signed-in borrower, as its current version says it, with
 * the amounts this borrower may ask for (issue #31, docs/decisions/034). The step-1 estimate is computed from
 * exactly these terms; the quote and the submission name `versionId`.
 */
export const offeredProductSchema = z.object({
  productId: z.string(),
  code: z.string(),
  versionId: z.string(),
  version: positiveInt(),
  names: z.object({ en: z.string(), fil: z.string(), zh: z.string(), km: z.string() }),
  /** The version's borrower range, up to this borrower's limit (whole pesos). */
  borrowerAmount: amountRule,
  termsMonths: z.array(positiveInt()).check(z.minLength(1)),
  defaultTermMonths: positiveInt(),
  monthlyRateBp: nonNegativeInt(),
  fees: z.object({
    flatMinor: nonNegativeInt(),
    percentBp: nonNegativeInt(),
    // The rules of `feeCollections` (loan-terms.ts), written out: that module's schemas stay off the first load.
    collection: z.enum(['deducted_from_payout'] as const satisfies readonly FeeCollection[]),
  }),
  lateChargeMonthlyBp: nonNegativeInt(),
  graceDays: nonNegativeInt(),
  /** Why the limit is what it is: a first loan, or a repeat borrower's larger limit. */
  limit: z.object({
    basis: z.enum(['first_loan', 'repeat']),
    /** Whole pesos: the larger limit of the repeat rule, and how many repaid loans earn it (null: none). */
    repeatMaxAmount: z.nullable(positiveInt()),
    loansNeeded: z.nullable(positiveInt()),
    /** The most days any instalment of a repaid loan may have been late for it to count. */
    repeatMaxDaysLate: z.nullable(nonNegativeInt()),
    qualifyingLoans: nonNegativeInt(),
  }),
});
export type OfferedProduct = z.infer<typeof offeredProductSchema>;

export const offeredProductsResponse = z.object({ items: z.array(offeredProductSchema) });
export type OfferedProductsResponse = z.infer<typeof offeredProductsResponse>;
