import type { FieldErrorInput } from '../errors';
import { type AmountRule, isOnRule } from './amount-rule';

/*
 * What a borrower may ask for under a product version (docs/decisions/034), apart from the catalogue's rules
 * in products.ts so that step 1 (a borrower's first load) does not bring the legal-ceiling checks with it.
 */

/**
 * Whether a borrower may ask for `amount` (whole pesos) over `termMonths` under a version, given their limit:
 * the field errors, empty when they may. An amount on the version's range but above the borrower's limit is
 * told so; any other amount outside what they may ask for gets the range (with its figures).
 */
export function borrowerRequestIssues(
  terms: { readonly borrowerAmount: AmountRule; readonly termsMonths: readonly number[] },
  limit: { readonly maxAmount: number },
  amount: number,
  termMonths: number,
): Record<string, FieldErrorInput> {
  const issues: Record<string, FieldErrorInput> = {};
  const rule = { ...terms.borrowerAmount, max: Math.min(terms.borrowerAmount.max, limit.maxAmount) };
  if (!isOnRule(amount, rule)) {
    issues.amount = isOnRule(amount, terms.borrowerAmount)
      ? { code: 'LOAN_AMOUNT_ABOVE_LIMIT', params: { limitPesos: rule.max } }
      : amountOutOfRange(rule);
  }
  if (!terms.termsMonths.includes(termMonths)) issues.termMonths = 'LOAN_TERM_NOT_OFFERED';
  return issues;
}

/** "Loan amount must be between ₱10,000 and ₱300,000, in ₱10,000 increments", with the rule's own figures. */
export function amountOutOfRange(rule: AmountRule): {
  code: 'LOAN_AMOUNT_OUT_OF_RANGE';
  params: Record<string, number>;
} {
  return {
    code: 'LOAN_AMOUNT_OUT_OF_RANGE',
    params: { minPesos: rule.min, maxPesos: rule.max, stepPesos: rule.step },
  };
}
