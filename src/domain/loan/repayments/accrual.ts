import { divRoundHalfUp } from '../../money';
import { BP_PER_UNIT } from '../terms';
import { loanMonthUnits, MONTH_UNITS, RATE_DENOMINATOR } from './day-count';

/*
 * Accrual: how interest and late charges grow with time, as exact numerators over RATE_DENOMINATOR
 * (centavos × basis points × month units), rounded once where a centavo figure is needed (docs/decisions/010,
 * 035). Pure arithmetic; the replay decides on which balance and over which span.
 */

const BP = BigInt(BP_PER_UNIT);

/** Interest on `balanceMinor` from `from` to `to` (exclusive) on the loan calendar starting `startDate`. */
export function interestNumerator(
  balanceMinor: number,
  monthlyRateBp: number,
  startDate: string,
  from: string,
  to: string,
): bigint {
  if (balanceMinor <= 0 || monthlyRateBp === 0) return 0n;
  return BigInt(balanceMinor) * BigInt(monthlyRateBp) * loanMonthUnits(startDate, from, to);
}

/** One whole loan month's interest on a balance (the projection of instalments not yet running). */
export function monthInterestNumerator(balanceMinor: number, monthlyRateBp: number): bigint {
  if (balanceMinor <= 0) return 0n;
  return BigInt(balanceMinor) * BigInt(monthlyRateBp) * MONTH_UNITS;
}

/**
 * Late charges accrue per day at 1/31 of the monthly rate, so no stretch of one month (28–31 days) is ever
 * charged more than the monthly rate: the 5 % ceiling holds however a month is counted.
 */
const LATE_DAY_UNITS = MONTH_UNITS / 31n;

export function lateChargeNumerator(unpaidMinor: number, lateChargeMonthlyBp: number, days: number): bigint {
  if (unpaidMinor <= 0 || days <= 0 || lateChargeMonthlyBp === 0) return 0n;
  return BigInt(unpaidMinor) * BigInt(lateChargeMonthlyBp) * BigInt(days) * LATE_DAY_UNITS;
}

/**
 * The level payment that repays `owedNumerator` (centavos × RATE_DENOMINATOR: what is owed at the first
 * remaining due date, its interest included) over `count` instalments, the first due at that date:
 * annuity(X, m) / (1 + r) = X·bp·G^(m−1) / (G^m − 10000^m) with G = 10000 + bp, one exact fraction and one
 * rounding. For a whole month this is exactly annuityPaymentMinor(balance, m, bp).
 */
export function levelPayment(owedNumerator: bigint, count: number, monthlyRateBp: number): number {
  if (owedNumerator <= 0n || count < 1) return 0;
  if (monthlyRateBp === 0) return Number(divRoundHalfUp(owedNumerator, RATE_DENOMINATOR * BigInt(count)));
  const bp = BigInt(monthlyRateBp);
  const grown = BP + bp;
  const numerator = owedNumerator * bp * grown ** BigInt(count - 1);
  const denominator = RATE_DENOMINATOR * (grown ** BigInt(count) - BP ** BigInt(count));
  return Number(divRoundHalfUp(numerator, denominator));
}
