import { borrowerAmountRule, borrowerLimit } from '../../../domain/loan/products';
import type { OfferedProductsResponse } from '../../../domain/schemas/offered-products';
import type { AppDeps } from '../../deps';
import { repaidLoansOf } from '../../products/borrower-history';
import { currentProductVersions } from '../../products/product-versions';

/**
 * The products a borrower may apply under now (every product whose newest version is active), each with the
 * amounts this borrower may ask for: the first-loan limit, or the larger limit once enough loans were repaid
 * on time (docs/decisions/034).
 */
export async function listOfferedProducts(
  deps: AppDeps,
  borrowerId: string,
): Promise<OfferedProductsResponse> {
  const offered = (await currentProductVersions(deps.db)).filter((v) => v.status === 'active');
  const repaid = offered.some((v) => v.eligibility.repeat)
    ? await repaidLoansOf(deps.db, deps, borrowerId)
    : [];
  return {
    items: offered.map((version) => {
      const limit = borrowerLimit(version, repaid);
      return {
        productId: version.productId,
        code: version.code,
        versionId: version.id,
        version: version.version,
        names: { ...version.names },
        borrowerAmount: borrowerAmountRule(version, limit),
        termsMonths: [...version.termsMonths],
        defaultTermMonths: version.defaultTermMonths,
        monthlyRateBp: version.monthlyRateBp,
        fees: { ...version.fees },
        lateChargeMonthlyBp: version.lateChargeMonthlyBp,
        graceDays: version.graceDays,
        limit: {
          basis: limit.basis,
          repeatMaxAmount: version.eligibility.repeat?.maxAmount ?? null,
          loansNeeded: limit.loansNeeded,
          repeatMaxDaysLate: version.eligibility.repeat?.maxDaysLate ?? null,
          qualifyingLoans: limit.qualifyingLoans,
        },
      };
    }),
  };
}
