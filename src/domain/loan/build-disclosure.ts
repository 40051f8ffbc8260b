import { assertMinor } from '../money';
import { computeFeesMinor } from './amount-rule';
import type { Disclosure } from './disclosure';
import type { LoanTerms } from './loan-terms';
import {
  aprString,
  effectiveAnnualRateFromCashFlows,
  effectiveAnnualRateString,
  monthlyRateString,
} from './rates';
import { annuityPaymentMinor, buildSchedule, scheduleTotals } from './schedule';

// The disclosure's computation apart from its schemas (disclosure.ts, which re-exports it): step 1 estimates
// with it on a borrower's first load, which then fetches no zod (docs/decisions/052).

/**
 * Bump when the shape or a computation changes, so a stored snapshot says which rules produced it. Version 2
 * (issue #31) names every charge: the late charge and grace days, how fees are taken, the net proceeds.
 */
export const DISCLOSURE_VERSION = 2;

export interface DisclosureInput {
  amountMinor: number;
  termMonths: number;
  currency: string;
  /** The terms the loan is signed under (its product version's). */
  terms: LoanTerms;
  /** ISO 'YYYY-MM-DD' the schedule counts from; passed in, never read from a clock. */
  startDate: string;
}

/**
 * Fees are taken from the money paid out (`deducted_from_payout`), so for the effective rate the borrower is
 * advanced amount − fees and repays the schedule. Without fees it is exactly (1 + r)^12 − 1 as SPEC §6
 * defines.
 */
export function buildDisclosure({
  amountMinor,
  termMonths,
  currency,
  terms,
  startDate,
}: DisclosureInput): Disclosure {
  assertMinor(amountMinor, 'amountMinor');
  const { monthlyRateBp, fees } = terms;
  const schedule = buildSchedule({ amountMinor, termMonths, monthlyRateBp, startDate });
  const { totalRepayableMinor, totalInterestMinor } = scheduleTotals(schedule);
  const feesTotalMinor = computeFeesMinor(amountMinor, fees);
  if (feesTotalMinor >= amountMinor) throw new Error('Fees would take the whole loan amount');
  const effectiveAnnualRate =
    feesTotalMinor === 0
      ? effectiveAnnualRateString(monthlyRateBp)
      : effectiveAnnualRateFromCashFlows(
          amountMinor - feesTotalMinor,
          schedule.map((row) => row.paymentMinor),
        );
  return {
    version: DISCLOSURE_VERSION,
    currency,
    amountMinor,
    termMonths,
    startDate,
    monthlyRate: monthlyRateString(monthlyRateBp),
    apr: aprString(monthlyRateBp),
    effectiveAnnualRate,
    monthlyPaymentMinor: annuityPaymentMinor(amountMinor, termMonths, monthlyRateBp),
    totalRepayableMinor,
    totalInterestMinor,
    fees: {
      flatMinor: fees.flatMinor,
      percentBp: fees.percentBp,
      totalMinor: feesTotalMinor,
      collection: fees.collection,
    },
    netProceedsMinor: amountMinor - feesTotalMinor,
    totalCostOfCreditMinor: totalInterestMinor + feesTotalMinor,
    lateCharge: {
      monthlyRate: monthlyRateString(terms.lateChargeMonthlyBp),
      monthlyBp: terms.lateChargeMonthlyBp,
      graceDays: terms.graceDays,
    },
    schedule,
  };
}
