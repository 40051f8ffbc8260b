import { createHash } from 'node:crypto';
import { todayIn } from '../../domain/date-text';
import { AppError } from '../../domain/errors';
import { borrowerRequestIssues } from '../../domain/loan/borrower-request';
import { buildDisclosure, canonicalDisclosureJson, type Disclosure } from '../../domain/loan/disclosure';
import type { LoanTerms } from '../../domain/loan/loan-terms';
import {
  borrowerLimit,
  loanTermsOfVersion,
  type ProductTerms,
  type ProductVersion,
} from '../../domain/loan/products';
import { toMinor } from '../../domain/money';
import type { AppDeps } from '../deps';
import { repaidLoansOf } from '../products/borrower-history';
import { versionForApplication } from '../products/product-versions';

export interface Quote {
  disclosure: Disclosure;
  /** SHA-256 of the canonical disclosure JSON: the borrower signs exactly these terms. */
  disclosureSha256: string;
  /** The terms the loan is signed under: stored with it (`applications.terms`). */
  terms: LoanTerms;
}

/**
 * The full disclosure for an amount and term under a product version's terms (issue #31): never the
 * server's settings. The currency is the lender's one currency.
 */
export function quoteLoan(
  deps: Pick<AppDeps, 'config'>,
  input: { amount: number; termMonths: number },
  version: ProductTerms,
): Quote {
  const terms = loanTermsOfVersion(version);
  const disclosure = buildDisclosure({
    amountMinor: toMinor(input.amount),
    termMonths: input.termMonths,
    currency: deps.config.loanProduct.currency,
    terms,
    startDate: todayIn(deps.config.timeZone),
  });
  return { disclosure, disclosureSha256: disclosureSha256(disclosure), terms };
}

export interface BorrowerRequest {
  amount: number;
  termMonths: number;
  /** The product version chosen on step 1; may be left out when the borrower is offered exactly one. */
  productVersionId?: string | undefined;
}

/**
 * What a borrower may sign (docs/decisions/034): the chosen version must be its product's current, active
 * version; the amount within its borrower range and this borrower's limit (a first loan, or the larger limit
 * earned by loans repaid on time); the term one it offers. Refuses with the reason, by field.
 */
export async function quoteForBorrower(
  deps: AppDeps,
  borrowerId: string,
  request: BorrowerRequest,
): Promise<{ quote: Quote; version: ProductVersion }> {
  const version = await versionForApplication(deps.db, request.productVersionId);
  const limit = borrowerLimit(version, await repaidLoansOf(deps.db, deps, borrowerId));
  const issues = borrowerRequestIssues(version, limit, request.amount, request.termMonths);
  const first = Object.values(issues)[0];
  if (first) {
    throw new AppError(typeof first === 'string' ? first : first.code, {
      fields: issues,
      ...(typeof first === 'string' ? {} : { params: first.params }),
    });
  }
  return { quote: quoteLoan(deps, request, version), version };
}

export function disclosureSha256(disclosure: Disclosure): string {
  return createHash('sha256').update(canonicalDisclosureJson(disclosure)).digest('hex');
}
