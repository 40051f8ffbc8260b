import { MINOR_PER_MAJOR } from '../money';
import type { ProductStatus, ProductTerms } from './products';

/*
 * What changed between versions of a loan product (docs/decisions/034): the audit trail and the back
 * office's version history name the same facts. Apart from products.ts, whose checks bring the legal
 * ceilings' loan maths with them, so the history screen does not load it.
 */

/** The fields of a version, flat, as the audit log and the version history name them. */
export interface ProductFacts {
  nameEn: string;
  nameFil: string;
  nameZh: string;
  nameKm: string;
  borrowerMinAmount: number;
  borrowerMaxAmount: number;
  borrowerAmountStep: number;
  staffMinAmount: number;
  staffMaxAmount: number;
  staffAmountStep: number;
  termsOffered: string;
  defaultTermMonths: number;
  monthlyRate: number;
  feeFlat: number;
  feePercent: number;
  lateCharge: number;
  graceDays: number;
  fourEyesThreshold: number;
  firstLoanMaxAmount: number;
  repeatMaxAmount: number | null;
  repeatAfterLoans: number | null;
  repeatMaxDaysLate: number | null;
  status: ProductStatus;
}
export type ProductFact = keyof ProductFacts;

/** A version as flat facts: money in centavos, rates in basis points, terms as "6, 12, 18, 24". */
export function productFacts(terms: ProductTerms): ProductFacts {
  const minor = (pesos: number) => pesos * MINOR_PER_MAJOR;
  const repeat = terms.eligibility.repeat;
  return {
    nameEn: terms.names.en,
    nameFil: terms.names.fil,
    nameZh: terms.names.zh,
    nameKm: terms.names.km,
    borrowerMinAmount: minor(terms.borrowerAmount.min),
    borrowerMaxAmount: minor(terms.borrowerAmount.max),
    borrowerAmountStep: minor(terms.borrowerAmount.step),
    staffMinAmount: minor(terms.staffAmount.min),
    staffMaxAmount: minor(terms.staffAmount.max),
    staffAmountStep: minor(terms.staffAmount.step),
    termsOffered: [...terms.termsMonths].sort((a, b) => a - b).join(', '),
    defaultTermMonths: terms.defaultTermMonths,
    monthlyRate: terms.monthlyRateBp,
    feeFlat: terms.fees.flatMinor,
    feePercent: terms.fees.percentBp,
    lateCharge: terms.lateChargeMonthlyBp,
    graceDays: terms.graceDays,
    fourEyesThreshold: terms.fourEyesThresholdMinor,
    firstLoanMaxAmount: minor(terms.eligibility.firstLoanMaxAmount),
    repeatMaxAmount: repeat ? minor(repeat.maxAmount) : null,
    repeatAfterLoans: repeat ? repeat.afterLoans : null,
    repeatMaxDaysLate: repeat ? repeat.maxDaysLate : null,
    status: terms.status,
  };
}

/** The facts that differ from one version to the next, in the order a form shows them. */
export function productChanges(
  before: ProductTerms,
  after: ProductTerms,
): { field: ProductFact; before: ProductFacts[ProductFact]; after: ProductFacts[ProductFact] }[] {
  const a = productFacts(before);
  const b = productFacts(after);
  return (Object.keys(b) as ProductFact[])
    .filter((field) => a[field] !== b[field])
    .map((field) => ({ field, before: a[field], after: b[field] }));
}

/** Whether two versions say the same (a save that changes nothing makes no new version). */
export function sameProductTerms(a: ProductTerms, b: ProductTerms): boolean {
  return productChanges(a, b).length === 0;
}
