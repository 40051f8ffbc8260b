import * as z from 'zod/mini';
import { computeFeesMinor } from './amount-rule';
import type { RepaymentRules } from './repayments/caps';
import type { LoanProduct } from './terms';

/**
 * How a loan's fees are taken (issue #31): `deducted_from_payout` — each payout is paid net of its share of
 * the fee (the flat fee from the first, the percentage of each), so the borrower receives what the
 * disclosure calls net proceeds and the fee is income the day the money goes out.
 */
export const feeCollections = ['deducted_from_payout'] as const;
export type FeeCollection = (typeof feeCollections)[number];

/**
 * How money is rounded: each instalment's interest is the exact interest of its period rounded once,
 * half-up to the centavo; the last instalment takes the rounding residue of the principal.
 */
export const roundingRules = ['half_up_per_instalment'] as const;
export type RoundingRule = (typeof roundingRules)[number];

/**
 * Every term that prices a signed loan, kept with it from its signing (`applications.terms`): the schedule,
 * the replay, the statement, overdue, reminders, the PDFs and every figure read these, never the server's
 * settings or a later product version (SPEC §9). The amount and the term are the loan's own columns.
 */
export interface LoanTerms extends LoanPrices {
  readonly rounding: RoundingRule;
}

/** The prices of a loan: what a product version offers (`ProductTerms`) and a signed loan keeps. */
export interface LoanPrices {
  /** Basis points a month (200 = 2 %). */
  readonly monthlyRateBp: number;
  readonly fees: {
    readonly flatMinor: number;
    /** Of each amount paid out, in basis points. */
    readonly percentBp: number;
    readonly collection: FeeCollection;
  };
  /** Late charge a month on an overdue instalment's unpaid amount, in basis points (0: none). */
  readonly lateChargeMonthlyBp: number;
  /** Days after a due date before an unpaid instalment is overdue. */
  readonly graceDays: number;
}

const count = () => z.int().check(z.minimum(0));

export const loanTermsSchema = z.strictObject({
  monthlyRateBp: count(),
  fees: z.strictObject({
    flatMinor: count(),
    percentBp: count(),
    collection: z.enum(feeCollections),
  }),
  lateChargeMonthlyBp: count(),
  graceDays: count(),
  rounding: z.enum(roundingRules),
});

/** The prices a product with its repayment rules sets: its rate and fees, the rules' late charge and grace. */
export function loanPricesOf(product: LoanProduct, rules: RepaymentRules): LoanPrices {
  return {
    monthlyRateBp: product.monthlyRateBp,
    fees: {
      flatMinor: product.fees.flatMinor,
      percentBp: product.fees.percentBp,
      collection: 'deducted_from_payout',
    },
    lateChargeMonthlyBp: rules.lateChargeMonthlyBp,
    graceDays: rules.graceDays,
  };
}

/** The terms a product (with its repayment rules) gives a loan signed under it. */
export function loanTermsOf(product: LoanProduct, rules: RepaymentRules): LoanTerms {
  return { ...loanPricesOf(product, rules), rounding: 'half_up_per_instalment' };
}

/** The repayment rules a loan's own terms set (grace and late charge) for the replay. */
export function repaymentRulesOf(terms: LoanTerms): RepaymentRules {
  return { graceDays: terms.graceDays, lateChargeMonthlyBp: terms.lateChargeMonthlyBp };
}

/** A stored snapshot, checked: a row whose terms do not parse is refused rather than priced by guesswork. */
export function parseLoanTerms(value: unknown): LoanTerms {
  const parsed = loanTermsSchema.safeParse(typeof value === 'string' ? JSON.parse(value) : value);
  if (!parsed.success) throw new Error(`A loan's stored terms are not valid: ${JSON.stringify(value)}`);
  return parsed.data;
}

/**
 * The fee taken from one payout (`deducted_from_payout`): the loan's percentage of it, rounded half-up, and
 * its flat fee on the first payout (the first one not failed). The borrower receives the rest; the
 * principal owed is the whole amount.
 */
export function payoutFeeMinor(terms: LoanTerms, amountMinor: number, firstPayout: boolean): number {
  return computeFeesMinor(amountMinor, {
    flatMinor: firstPayout ? terms.fees.flatMinor : 0,
    percentBp: terms.fees.percentBp,
  });
}
