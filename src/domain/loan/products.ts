import type { FieldErrorInput } from '../errors';
import { type Language, languages } from '../languages';
import { isMinor, MINOR_PER_MAJOR } from '../money';
import { daysBetween } from './calendar';
import { feeCollections, type LoanPrices, type LoanTerms, loanPricesOf, loanTermsOf } from './loan-terms';
import { type CapIssue, checkCostCaps, costCaps, MAX_GRACE_DAYS } from './repayments/caps';
import { type AmountRule, BP_PER_UNIT, defaultLoanProduct, isOnRule, type LoanProduct } from './terms';

/**
 * Loan products (issue #31, SPEC §9, docs/decisions/034). A product is a stable id and code with versions;
 * each version says every term a loan signed under it is priced by and who may apply. Versions are never
 * edited: a change is a new version, and a loan keeps the version (and the `LoanTerms` snapshot) it was
 * signed under.
 */

/** A product's name in every UI language. */
export type ProductNames = Readonly<Record<Language, string>>;

/** Active: offered for new applications. Retired: no new application; loans signed under it run on. */
export const productStatuses = ['active', 'retired'] as const;
export type ProductStatus = (typeof productStatuses)[number];

/** The larger limit a borrower earns by repaying: after `afterLoans` loans closed, none more than `maxDaysLate` late. */
export interface RepeatBorrowerRule {
  readonly afterLoans: number;
  readonly maxDaysLate: number;
  /** Whole pesos. */
  readonly maxAmount: number;
}

/** Who may apply, and for how much (whole pesos, on the borrower amount rule). */
export interface ProductEligibility {
  readonly firstLoanMaxAmount: number;
  readonly repeat: RepeatBorrowerRule | null;
}

/** What one version of a product says. Amounts in whole pesos (as `LoanProduct`), money otherwise in centavos. */
export interface ProductTerms extends LoanPrices {
  readonly names: ProductNames;
  readonly borrowerAmount: AmountRule;
  readonly staffAmount: AmountRule;
  readonly termsMonths: readonly number[];
  readonly defaultTermMonths: number;
  /** Approving more than this (centavos) needs a second staff member (four-eyes, docs/decisions/018). */
  readonly fourEyesThresholdMinor: number;
  readonly eligibility: ProductEligibility;
  readonly status: ProductStatus;
}

/** One stored version of a product. */
export interface ProductVersion extends ProductTerms {
  readonly id: string;
  readonly productId: string;
  readonly code: string;
  /** 1, 2, … per product. */
  readonly version: number;
}

/** A product code: how staff and the API name a product for good (e.g. "salary-loan"). */
export const productCodePattern = /^[a-z][a-z0-9-]{1,31}$/;
/** The longest product name in any language. */
export const PRODUCT_NAME_MAX = 80;
/** The longest term a product may offer (months), and how many terms it may list. */
export const PRODUCT_MAX_TERM_MONTHS = 120;
export const PRODUCT_MAX_TERMS = 12;
/** Whole pesos: the largest amount any range, limit or threshold may name. */
export const PRODUCT_MAX_AMOUNT = 1_000_000_000;
/** At most this many loans may be asked for before the repeat limit, and this many days late. */
export const PRODUCT_MAX_REPEAT_LOANS = 50;
export const PRODUCT_MAX_DAYS_LATE = 365;

/** The `LoanProduct` shape the loan maths and the staff checks take (`checkCostCaps`, `isStaffAmountAllowed`). */
export function loanProductOf(
  terms: ProductTerms,
  currency: string = defaultLoanProduct.currency,
): LoanProduct {
  return {
    currency,
    borrowerAmount: terms.borrowerAmount,
    staffAmount: terms.staffAmount,
    termsMonths: [...terms.termsMonths],
    defaultTermMonths: terms.defaultTermMonths,
    monthlyRateBp: terms.monthlyRateBp,
    fees: { flatMinor: terms.fees.flatMinor, percentBp: terms.fees.percentBp },
    defaultCreditScore: defaultLoanProduct.defaultCreditScore,
  };
}

/** The snapshot a loan signed under this version keeps (`applications.terms`). */
export function loanTermsOfVersion(terms: ProductTerms): LoanTerms {
  const base = loanTermsOf(loanProductOf(terms), {
    graceDays: terms.graceDays,
    lateChargeMonthlyBp: terms.lateChargeMonthlyBp,
  });
  return { ...base, fees: { ...base.fees, collection: terms.fees.collection } };
}

/**
 * Version 1 of the default product, from the settings an existing set-up ran on (LOAN_*, REPAYMENT_GRACE_DAYS,
 * LATE_CHARGE_MONTHLY_BP, FOUR_EYES_THRESHOLD): the same amounts, terms and prices, and every borrower may ask
 * for the whole borrower range, as before products existed.
 */
export function productTermsFromSettings(
  product: LoanProduct,
  rules: { graceDays: number; lateChargeMonthlyBp: number },
  fourEyesThresholdMinor: number,
  names: ProductNames,
): ProductTerms {
  return {
    names,
    borrowerAmount: { ...product.borrowerAmount },
    staffAmount: { ...product.staffAmount },
    termsMonths: [...product.termsMonths],
    defaultTermMonths: product.defaultTermMonths,
    ...loanPricesOf(product, rules),
    fourEyesThresholdMinor,
    eligibility: { firstLoanMaxAmount: product.borrowerAmount.max, repeat: null },
    status: 'active',
  };
}

const isCount = (n: unknown, max: number): n is number =>
  Number.isSafeInteger(n) && (n as number) >= 0 && (n as number) <= max;
const isPositiveAmount = (n: unknown): n is number =>
  Number.isSafeInteger(n) && (n as number) > 0 && (n as number) <= PRODUCT_MAX_AMOUNT;

function amountRuleIssue(rule: AmountRule): boolean {
  if (![rule.min, rule.max, rule.step].every(isPositiveAmount)) return true;
  return rule.min > rule.max || (rule.max - rule.min) % rule.step !== 0;
}

/**
 * Every way a version is not a product Hiram may lend under, by field, as catalogue codes: the shape (amount
 * ranges reachable in whole steps, terms, a default term among them, limits on the borrower range, a
 * complete repeat-borrower rule) and the Philippine ceilings the start-up check enforces (`checkCostCaps`).
 * Empty when it may be saved.
 */
export function productIssues(terms: ProductTerms): Record<string, FieldErrorInput> {
  const issues: Record<string, FieldErrorInput> = {};
  const add = (field: string, issue: FieldErrorInput) => {
    if (!(field in issues)) issues[field] = issue;
  };
  for (const language of languages) {
    const name = terms.names[language]?.trim() ?? '';
    if (name === '') add(`names.${language}`, 'PRODUCT_NAME_REQUIRED');
    else if (name.length > PRODUCT_NAME_MAX) add(`names.${language}`, 'PRODUCT_NAME_TOO_LONG');
  }
  const borrowerBad = amountRuleIssue(terms.borrowerAmount);
  if (borrowerBad) add('borrowerAmount', 'PRODUCT_AMOUNT_RULE_INVALID');
  if (amountRuleIssue(terms.staffAmount)) add('staffAmount', 'PRODUCT_AMOUNT_RULE_INVALID');
  const months = terms.termsMonths;
  const termsBad =
    months.length === 0 ||
    months.length > PRODUCT_MAX_TERMS ||
    new Set(months).size !== months.length ||
    !months.every((m) => Number.isSafeInteger(m) && m >= 1 && m <= PRODUCT_MAX_TERM_MONTHS);
  if (termsBad) add('termsMonths', 'PRODUCT_TERMS_INVALID');
  else if (!months.includes(terms.defaultTermMonths))
    add('defaultTermMonths', 'PRODUCT_DEFAULT_TERM_INVALID');
  if (
    !isMinor(terms.fees.flatMinor) ||
    terms.fees.flatMinor < 0 ||
    terms.fees.flatMinor > PRODUCT_MAX_AMOUNT * MINOR_PER_MAJOR
  )
    add('fees.flatMinor', 'PRODUCT_FEE_INVALID');
  if (!isCount(terms.fees.percentBp, BP_PER_UNIT - 1)) add('fees.percentBp', 'PRODUCT_FEE_INVALID');
  if (!(feeCollections as readonly string[]).includes(terms.fees.collection))
    add('fees.collection', 'PRODUCT_FEE_INVALID');
  if (!isCount(terms.monthlyRateBp, costCaps.maxMonthlyRateBp))
    add('monthlyRateBp', 'PRODUCT_RATE_ABOVE_CAP');
  if (!isCount(terms.lateChargeMonthlyBp, costCaps.maxLateChargeMonthlyBp))
    add('lateChargeMonthlyBp', 'PRODUCT_LATE_CHARGE_ABOVE_CAP');
  if (!isCount(terms.graceDays, MAX_GRACE_DAYS)) add('graceDays', 'PRODUCT_GRACE_DAYS_INVALID');
  if (
    !isCount(terms.fourEyesThresholdMinor, PRODUCT_MAX_AMOUNT * MINOR_PER_MAJOR) ||
    terms.fourEyesThresholdMinor % MINOR_PER_MAJOR !== 0
  )
    add('fourEyesThresholdMinor', 'PRODUCT_THRESHOLD_INVALID');
  if (!(productStatuses as readonly string[]).includes(terms.status)) add('status', 'VALIDATION_FAILED');

  const { firstLoanMaxAmount, repeat } = terms.eligibility;
  const onBorrowerRule = (amount: number) => !borrowerBad && isOnRule(amount, terms.borrowerAmount);
  if (!onBorrowerRule(firstLoanMaxAmount)) add('eligibility.firstLoanMaxAmount', 'PRODUCT_LIMIT_INVALID');
  if (repeat) {
    if (!isCount(repeat.afterLoans, PRODUCT_MAX_REPEAT_LOANS) || repeat.afterLoans < 1)
      add('eligibility.repeat.afterLoans', 'PRODUCT_REPEAT_RULE_INVALID');
    if (!isCount(repeat.maxDaysLate, PRODUCT_MAX_DAYS_LATE))
      add('eligibility.repeat.maxDaysLate', 'PRODUCT_REPEAT_RULE_INVALID');
    if (!onBorrowerRule(repeat.maxAmount)) add('eligibility.repeat.maxAmount', 'PRODUCT_LIMIT_INVALID');
    else if (repeat.maxAmount <= firstLoanMaxAmount)
      add('eligibility.repeat.maxAmount', 'PRODUCT_REPEAT_LIMIT_NOT_LARGER');
  }

  // The legal ceilings need a product the loan maths can run on.
  const shapeOk =
    !borrowerBad &&
    !('staffAmount' in issues) &&
    !('termsMonths' in issues) &&
    !('fees.flatMinor' in issues) &&
    !('fees.percentBp' in issues);
  if (!shapeOk || 'monthlyRateBp' in issues) return issues;
  for (const issue of checkCostCaps(loanProductOf(terms), {
    graceDays: terms.graceDays,
    lateChargeMonthlyBp: terms.lateChargeMonthlyBp,
  })) {
    const mapped = capIssueCode(issue);
    add(mapped.field, mapped.issue);
  }
  return issues;
}

/**
 * A ceiling `checkCostCaps` found, as a catalogue code on a form field. Its message names the ceiling and,
 * for the cost checks, the amount and term that break it ("₱10000 over 24 months"); a message this does not
 * recognise still refuses, with the general ceiling message.
 */
export function capIssueCode(issue: CapIssue): { field: string; issue: FieldErrorInput } {
  const where = /₱(\d+(?:\.\d+)?) over (\d+) months/.exec(issue.message);
  const params = where ? { amountPesos: Number(where[1]), months: Number(where[2]) } : undefined;
  const field = issue.field === 'fees' ? 'fees.percentBp' : issue.field;
  const withParams = (
    code: 'PRODUCT_COST_ABOVE_CAP' | 'PRODUCT_EFFECTIVE_RATE_ABOVE_CAP' | 'PRODUCT_FEES_TOO_HIGH',
  ) => (params ? { code, params } : ('PRODUCT_ABOVE_LEGAL_CEILING' as const));
  if (issue.field === 'graceDays') return { field, issue: 'PRODUCT_GRACE_DAYS_INVALID' };
  if (issue.field === 'lateChargeMonthlyBp') return { field, issue: 'PRODUCT_LATE_CHARGE_ABOVE_CAP' };
  if (/whole loan/.test(issue.message)) return { field, issue: withParams('PRODUCT_FEES_TOO_HIGH') };
  if (/100 %/.test(issue.message)) return { field, issue: withParams('PRODUCT_COST_ABOVE_CAP') };
  if (/effective rate/.test(issue.message))
    return { field, issue: withParams('PRODUCT_EFFECTIVE_RATE_ABOVE_CAP') };
  if (issue.field === 'monthlyRateBp' && /monthly rate/.test(issue.message))
    return { field, issue: 'PRODUCT_RATE_ABOVE_CAP' };
  return { field, issue: 'PRODUCT_ABOVE_LEGAL_CEILING' };
}

// ---------------------------------------------------------------------------------------------------------
// Who may borrow how much

/** One earlier loan of the borrower, closed (repaid in full), and the most days any instalment was paid late. */
export interface RepaidLoan {
  readonly maxDaysLate: number;
}

export type LimitBasis = 'first_loan' | 'repeat';

export interface BorrowerLimit {
  /** Whole pesos: the most this borrower may ask for under this version. */
  readonly maxAmount: number;
  readonly basis: LimitBasis;
  /** Loans repaid within the repeat rule's lateness, and how many the rule asks for (null: no repeat rule). */
  readonly qualifyingLoans: number;
  readonly loansNeeded: number | null;
}

/**
 * The borrower's limit under a version: the larger repeat limit once `afterLoans` loans were repaid with no
 * instalment more than `maxDaysLate` days late, else the first-loan limit.
 */
export function borrowerLimit(terms: ProductTerms, repaid: readonly RepaidLoan[]): BorrowerLimit {
  const { firstLoanMaxAmount, repeat } = terms.eligibility;
  if (!repeat)
    return { maxAmount: firstLoanMaxAmount, basis: 'first_loan', qualifyingLoans: 0, loansNeeded: null };
  const qualifyingLoans = repaid.filter((loan) => loan.maxDaysLate <= repeat.maxDaysLate).length;
  return qualifyingLoans >= repeat.afterLoans
    ? { maxAmount: repeat.maxAmount, basis: 'repeat', qualifyingLoans, loansNeeded: repeat.afterLoans }
    : { maxAmount: firstLoanMaxAmount, basis: 'first_loan', qualifyingLoans, loansNeeded: repeat.afterLoans };
}

/** The amounts this borrower may ask for: the version's borrower range, up to their limit. */
export function borrowerAmountRule(terms: ProductTerms, limit: BorrowerLimit): AmountRule {
  return { ...terms.borrowerAmount, max: Math.min(terms.borrowerAmount.max, limit.maxAmount) };
}

/**
 * How late a repaid loan was: for each instalment, the day the money received (reversals left out), counted
 * in date order, first covered every payment due up to it — or everything ever received, for a loan paid
 * off early whose later instalments shrank — less its due date; the most of these, 0 when never late.
 */
export function maxDaysLate(
  schedule: readonly { dueDate: string; paymentMinor: number }[],
  repayments: readonly { receivedOn: string; amountMinor: number; reversedOn?: string | null }[],
): number {
  const received = repayments
    .filter((r) => !r.reversedOn)
    .map((r) => ({ on: r.receivedOn, amount: r.amountMinor }))
    .sort((a, b) => (a.on < b.on ? -1 : a.on > b.on ? 1 : 0));
  const total = received.reduce((sum, r) => sum + r.amount, 0);
  let worst = 0;
  let due = 0;
  for (const instalment of schedule) {
    due += instalment.paymentMinor;
    const needed = Math.min(due, total);
    let sum = 0;
    let paidOn: string | null = null;
    for (const r of received) {
      sum += r.amount;
      if (sum >= needed) {
        paidOn = r.on;
        break;
      }
    }
    if (paidOn === null) continue;
    worst = Math.max(worst, daysBetween(instalment.dueDate, paidOn));
  }
  return worst;
}
