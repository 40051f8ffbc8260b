import { toMinor } from '../../money';
import { monthlyIrr } from '../rates';
import { buildSchedule, scheduleTotals } from '../schedule';
import { BP_PER_UNIT, computeFeesMinor, type LoanProduct } from '../terms';

/**
 * The Philippine ceilings (BSP Circular 1133 s. 2021, SEC Memorandum Circular 3 s. 2022). They are written
 * for small short loans; Hiram applies them to every product, so no configuration can be more expensive.
 */
export const costCaps = {
  /** Nominal interest: 6 % a month. */
  maxMonthlyRateBp: 600,
  /** Effective rate including every fee but no late charges: 15 % a month. */
  maxEffectiveMonthlyRateBp: 1_500,
  /** Late charges: 5 % a month of the overdue scheduled amount. */
  maxLateChargeMonthlyBp: 500,
  /** Interest, fees and late charges together: 100 % of the principal paid out, however long it runs. */
  maxTotalCostBp: BP_PER_UNIT,
} as const;

/** How repayments are treated; configured beside the loan product. */
export interface RepaymentRules {
  /** Days after a due date before an unpaid instalment counts as overdue. */
  readonly graceDays: number;
  /** Late charge per month of the overdue scheduled amount, in basis points; 0 = no late charge. */
  readonly lateChargeMonthlyBp: number;
}

export const defaultRepaymentRules: RepaymentRules = { graceDays: 3, lateChargeMonthlyBp: 0 };

/** A generous bound so a typo (300 instead of 3) is refused rather than silently waiving lateness. */
export const MAX_GRACE_DAYS = 31;

export interface CapIssue {
  readonly field: 'monthlyRateBp' | 'fees' | 'lateChargeMonthlyBp' | 'graceDays';
  readonly message: string;
}

/**
 * Every way the product and repayment configuration breaks a ceiling; empty when it is within them. The
 * total-cost and effective-rate checks run on the smallest and largest amount of both ranges for every
 * term (a flat fee weighs most on the smallest loan, rounding differs by amount).
 */
export function checkCostCaps(product: LoanProduct, rules: RepaymentRules): CapIssue[] {
  const issues: CapIssue[] = [];
  const { monthlyRateBp, fees } = product;
  if (!Number.isSafeInteger(rules.graceDays) || rules.graceDays < 0 || rules.graceDays > MAX_GRACE_DAYS) {
    issues.push({
      field: 'graceDays',
      message: `graceDays must be a whole number from 0 to ${MAX_GRACE_DAYS}`,
    });
  }
  const late = rules.lateChargeMonthlyBp;
  if (!Number.isSafeInteger(late) || late < 0 || late > costCaps.maxLateChargeMonthlyBp) {
    issues.push({
      field: 'lateChargeMonthlyBp',
      message: `late charge must be 0–${costCaps.maxLateChargeMonthlyBp} bp a month (5 %)`,
    });
  }
  if (
    !Number.isSafeInteger(monthlyRateBp) ||
    monthlyRateBp < 0 ||
    monthlyRateBp > costCaps.maxMonthlyRateBp
  ) {
    issues.push({
      field: 'monthlyRateBp',
      message: `monthly rate must be 0–${costCaps.maxMonthlyRateBp} bp (6 % a month)`,
    });
    return issues; // the cost checks below would only repeat the same fault
  }
  const amountsMinor = [
    ...new Set(
      [product.borrowerAmount, product.staffAmount].flatMap((rule) => [toMinor(rule.min), toMinor(rule.max)]),
    ),
  ];
  for (const termMonths of product.termsMonths) {
    for (const amountMinor of amountsMinor) {
      const feesMinor = computeFeesMinor(amountMinor, fees);
      const where = `₱${amountMinor / 100} over ${termMonths} months`;
      if (feesMinor >= amountMinor) {
        issues.push({ field: 'fees', message: `fees take the whole loan (${where})` });
        continue;
      }
      const schedule = buildSchedule({ amountMinor, termMonths, monthlyRateBp, startDate: '2000-01-01' });
      const { totalInterestMinor } = scheduleTotals(schedule);
      if (totalInterestMinor + feesMinor > amountMinor) {
        issues.push({
          field: monthlyRateBp > 0 && feesMinor === 0 ? 'monthlyRateBp' : 'fees',
          message: `interest and fees exceed 100 % of the principal (${where})`,
        });
      }
      const irr = monthlyIrr(
        amountMinor - feesMinor,
        schedule.map((row) => row.paymentMinor),
      );
      if (irr * BP_PER_UNIT > costCaps.maxEffectiveMonthlyRateBp) {
        issues.push({
          field: feesMinor > 0 ? 'fees' : 'monthlyRateBp',
          message: `effective rate above 15 % a month (${where})`,
        });
      }
    }
  }
  return issues;
}

/** For start-up: throws one error listing every issue. */
export function assertWithinCostCaps(product: LoanProduct, rules: RepaymentRules): void {
  const issues = checkCostCaps(product, rules);
  if (issues.length > 0) {
    throw new Error(
      `Loan configuration above the legal ceilings:\n${issues.map((i) => `  ${i.field}: ${i.message}`).join('\n')}`,
    );
  }
}
