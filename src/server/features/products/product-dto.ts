import type { ProductTerms, ProductVersion } from '../../../domain/loan/products';
import type { ProductVersionDto } from '../../../domain/schemas/products';

/** A version's terms as the API sends them (plain copies: the DTO is serialised as is). */
export function toProductTermsDto(terms: ProductTerms): ProductVersionDto['terms'] {
  return {
    names: { ...terms.names },
    borrowerAmount: { ...terms.borrowerAmount },
    staffAmount: { ...terms.staffAmount },
    termsMonths: [...terms.termsMonths],
    defaultTermMonths: terms.defaultTermMonths,
    monthlyRateBp: terms.monthlyRateBp,
    fees: { ...terms.fees },
    lateChargeMonthlyBp: terms.lateChargeMonthlyBp,
    graceDays: terms.graceDays,
    fourEyesThresholdMinor: terms.fourEyesThresholdMinor,
    eligibility: {
      firstLoanMaxAmount: terms.eligibility.firstLoanMaxAmount,
      repeat: terms.eligibility.repeat ? { ...terms.eligibility.repeat } : null,
    },
    status: terms.status,
  };
}

export function toProductVersionDto(
  version: ProductVersion & { createdAt: Date; createdBy: string | null; reason: string | null },
  loansSigned: number,
): ProductVersionDto {
  return {
    id: version.id,
    version: version.version,
    createdAt: version.createdAt.toISOString(),
    createdBy: version.createdBy,
    reason: version.reason,
    terms: toProductTermsDto(version),
    loansSigned,
  };
}
