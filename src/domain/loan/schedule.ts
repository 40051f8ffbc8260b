import { assertMinor, divRoundHalfUp, sumMinor } from '../money';
import { BP_PER_UNIT } from './amount-rule';
import { addMonthsClamped } from './calendar';

/** A guard against runaway input (the BigInt power grows with n); far beyond any product term. */
export const MAX_TERM_MONTHS = 600;

function assertLoanShape(amountMinor: number, termMonths: number, monthlyRateBp: number): void {
  assertMinor(amountMinor, 'amountMinor');
  if (amountMinor <= 0) throw new Error('amountMinor must be positive');
  if (!Number.isSafeInteger(termMonths) || termMonths < 1 || termMonths > MAX_TERM_MONTHS) {
    throw new Error(`termMonths must be a whole number from 1 to ${MAX_TERM_MONTHS}`);
  }
  if (!Number.isSafeInteger(monthlyRateBp) || monthlyRateBp < 0) throw new Error('monthlyRateBp must be ≥ 0');
}

/**
 * Annuity payment P·r / (1 − (1 + r)^−n), rounded half-up to the centavo (SPEC §6). With r = bp/10000
 * it equals P·bp·(10000 + bp)^n / (10000·((10000 + bp)^n − 10000^n)), evaluated in BigInt: one exact
 * fraction and one rounding, so every machine gets the same centavo. A 0% rate gives P / n.
 */
export function annuityPaymentMinor(amountMinor: number, termMonths: number, monthlyRateBp: number): number {
  assertLoanShape(amountMinor, termMonths, monthlyRateBp);
  const principal = BigInt(amountMinor);
  if (monthlyRateBp === 0) return Number(divRoundHalfUp(principal, BigInt(termMonths)));
  const base = BigInt(BP_PER_UNIT);
  const grown = (base + BigInt(monthlyRateBp)) ** BigInt(termMonths);
  const numerator = principal * BigInt(monthlyRateBp) * grown;
  const denominator = base * (grown - base ** BigInt(termMonths));
  const payment = Number(divRoundHalfUp(numerator, denominator));
  assertMinor(payment, 'monthly payment');
  return payment;
}

export interface Instalment {
  /** 1-based. */
  number: number;
  dueDate: string;
  paymentMinor: number;
  principalMinor: number;
  interestMinor: number;
  /** Principal still owed after this payment. */
  balanceMinor: number;
}

export interface ScheduleInput {
  amountMinor: number;
  termMonths: number;
  monthlyRateBp: number;
  /** ISO 'YYYY-MM-DD'; instalment k is due k months later (same day, clamped to month end). */
  startDate: string;
}

/**
 * The repayment schedule (SPEC §6, §9). Each instalment's interest is the rate × its opening balance,
 * rounded once, half-up, to the centavo; the rest of the level (annuity) payment repays principal.
 *
 * The last instalment repays the whole remaining balance with its own interest, so the rounding residue of
 * the earlier instalments shows there: its payment may differ from the level payment by a few centavos
 * (at most ((1 + r)^n − 1) / r of compounded half-centavo roundings: ₱0.31 for 24 months at 2 %), which
 * the schedule shows. Totals are the sum of the schedule (`scheduleTotals`), never payment × n. At a 0 %
 * rate the last instalment is just the balance.
 */
export function buildSchedule({
  amountMinor,
  termMonths,
  monthlyRateBp,
  startDate,
}: ScheduleInput): Instalment[] {
  const payment = annuityPaymentMinor(amountMinor, termMonths, monthlyRateBp);
  const schedule: Instalment[] = [];
  let balance = amountMinor;
  for (let number = 1; number <= termMonths; number++) {
    const interest = interestOnBalanceMinor(balance, monthlyRateBp);
    // payment ≥ interest always (payment > P·r ≥ balance·r and rounding is monotone).
    const principal = number < termMonths ? Math.min(payment - interest, balance) : balance;
    balance -= principal;
    schedule.push({
      number,
      dueDate: addMonthsClamped(startDate, number),
      paymentMinor: principal + interest,
      principalMinor: principal,
      interestMinor: interest,
      balanceMinor: balance,
    });
  }
  return schedule;
}

/** One month's interest on a balance: round-half-up(balance × bp / 10,000), in BigInt. */
export function interestOnBalanceMinor(balanceMinor: number, monthlyRateBp: number): number {
  return Number(divRoundHalfUp(BigInt(balanceMinor) * BigInt(monthlyRateBp), BigInt(BP_PER_UNIT)));
}

export interface ScheduleTotals {
  totalRepayableMinor: number;
  totalInterestMinor: number;
  totalPrincipalMinor: number;
}

export function scheduleTotals(schedule: readonly Instalment[]): ScheduleTotals {
  return {
    totalRepayableMinor: sumMinor(schedule.map((row) => row.paymentMinor)),
    totalInterestMinor: sumMinor(schedule.map((row) => row.interestMinor)),
    totalPrincipalMinor: sumMinor(schedule.map((row) => row.principalMinor)),
  };
}
