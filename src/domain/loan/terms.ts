import * as z from 'zod/mini';
import { isMinor } from '../money';
// The phone rule from its own module, not schemas/auth (the same pattern): step 1's chunk then carries no
// sign-in schemas (issue #35).
import { canonicalPhoneOrSame, canonicalMobilePattern as phonePattern } from '../phone';
import { miniText } from '../schemas/text-mini';
import { type AmountRule, BP_PER_UNIT, type FeeConfig, isOnRule, parseWholeAmount } from './amount-rule';

// Where they were first written; step 1 imports them from amount-rule.ts, which has no zod.
export {
  type AmountRule,
  BP_PER_UNIT,
  computeFeesMinor,
  type FeeConfig,
  isOnRule,
  parseWholeAmount,
  roundAndClamp,
} from './amount-rule';

export interface LoanProduct {
  readonly currency: string;
  readonly borrowerAmount: AmountRule;
  readonly staffAmount: AmountRule;
  readonly termsMonths: readonly number[];
  readonly defaultTermMonths: number;
  /** Basis points per month (200 = 2%): an integer, so the stored rate is exact and never drifts. */
  readonly monthlyRateBp: number;
  readonly fees: FeeConfig;
  readonly defaultCreditScore: number;
}

/** SPEC §6 defaults. One rate everywhere, staff and borrower. */
export const defaultLoanProduct: LoanProduct = {
  currency: 'PHP',
  borrowerAmount: { min: 10_000, max: 300_000, step: 10_000 },
  staffAmount: { min: 50_000, max: 2_000_000, step: 10_000 },
  termsMonths: [6, 12, 18, 24],
  defaultTermMonths: 6,
  monthlyRateBp: 200,
  fees: { flatMinor: 0, percentBp: 0 },
  defaultCreditScore: 500,
};

const isPositiveInt = (n: number) => Number.isSafeInteger(n) && n > 0;

/** Rejects a configuration that would make amounts unreachable or rates inexact; call it at start-up. */
export function assertLoanProduct(product: LoanProduct): void {
  const fail = (why: string) => {
    throw new Error(`Invalid loan product configuration: ${why}`);
  };
  for (const [name, rule] of Object.entries({
    borrowerAmount: product.borrowerAmount,
    staffAmount: product.staffAmount,
  })) {
    if (![rule.min, rule.max, rule.step].every(isPositiveInt)) fail(`${name} needs positive whole numbers`);
    if (rule.min > rule.max || (rule.max - rule.min) % rule.step !== 0) {
      fail(`${name}.max must be min + k·step`);
    }
  }
  if (product.termsMonths.length === 0 || !product.termsMonths.every(isPositiveInt)) fail('termsMonths');
  if (!product.termsMonths.includes(product.defaultTermMonths)) {
    fail('defaultTermMonths must be one of termsMonths');
  }
  const { monthlyRateBp, fees } = product;
  if (!Number.isSafeInteger(monthlyRateBp) || monthlyRateBp < 0 || monthlyRateBp > BP_PER_UNIT) {
    fail('monthlyRateBp');
  }
  if (!isMinor(fees.flatMinor) || fees.flatMinor < 0) fail('fees.flatMinor');
  if (!Number.isSafeInteger(fees.percentBp) || fees.percentBp < 0 || fees.percentBp >= BP_PER_UNIT) {
    fail('fees.percentBp');
  }
}

export type AmountCheck = { ok: true } | { ok: false; code: 'LOAN_AMOUNT_INVALID' };

export function validateBorrowerAmount(
  pesos: number,
  product: LoanProduct = defaultLoanProduct,
): AmountCheck {
  return isOnRule(pesos, product.borrowerAmount) ? { ok: true } : { ok: false, code: 'LOAN_AMOUNT_INVALID' };
}

/** Whole pesos from JSON: a number, or a typed string that `parseWholeAmount` understands. */
const wholeAmount = (rule: AmountRule, code: string) =>
  z.pipe(
    z.transform((value: unknown) => (typeof value === 'string' ? (parseWholeAmount(value) ?? value) : value)),
    z.number({ error: code }).check(z.refine((n) => isOnRule(n, rule), { error: code })),
  );

const termField = (product: LoanProduct, code: string) =>
  z.number({ error: code }).check(z.refine((n) => product.termsMonths.includes(n), { error: code }));

/** Step 1 of the application (SPEC §2.4, §5): amounts in whole pesos. */
export function makeLoanRequestSchema(product: LoanProduct = defaultLoanProduct) {
  return z.object({
    phone: miniText({ error: 'PHONE_REQUIRED' }).check(
      z.trim(),
      z.minLength(1, { error: 'PHONE_REQUIRED', abort: true }),
      z.overwrite(canonicalPhoneOrSame),
      z.regex(phonePattern, { error: 'PHONE_INVALID' }),
    ),
    amount: wholeAmount(product.borrowerAmount, 'LOAN_AMOUNT_INVALID'),
    termMonths: termField(product, 'LOAN_TERM_INVALID'),
  });
}

export const loanRequestSchema = makeLoanRequestSchema();

/**
 * Every amount a staff update can carry: a new amount must be in the staff range, but a loan may keep the
 * amount the borrower asked for (below the staff minimum) while only its term changes.
 */
export function staffEditableAmountRule(product: LoanProduct): AmountRule {
  const { borrowerAmount: borrower, staffAmount: staff } = product;
  return {
    min: Math.min(borrower.min, staff.min),
    max: Math.max(borrower.max, staff.max),
    step: Math.min(borrower.step, staff.step),
  };
}

/**
 * Staff "Update Loan" (SPEC §2.7, §8): a changed amount must be in the staff range (what staff may propose);
 * the current amount may always be kept, so a ₱10,000 loan can get a new term without jumping to ₱50,000.
 * Amounts in whole pesos.
 */
export function isStaffAmountAllowed(amount: number, currentAmount: number, product: LoanProduct): boolean {
  return amount === currentAmount || isOnRule(amount, product.staffAmount);
}

/**
 * Staff "Update Loan" (SPEC §2.7): one message for either field (SPEC §5 Staff). The schema admits every
 * amount `staffEditableAmountRule` allows; the use case applies `isStaffAmountAllowed` with the loan's
 * current amount.
 */
export function makeStaffLoanUpdateSchema(product: LoanProduct = defaultLoanProduct) {
  return z.object({
    amount: wholeAmount(staffEditableAmountRule(product), 'LOAN_UPDATE_INVALID'),
    termMonths: termField(product, 'LOAN_UPDATE_INVALID'),
  });
}

export const staffLoanUpdateSchema = makeStaffLoanUpdateSchema();
