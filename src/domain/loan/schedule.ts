import { assertMinor, divRoundHalfUp, sumMinor } from '../money';
import { addMonthsClamped } from './calendar';
import { BP_PER_UNIT } from './terms';

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
 * The repayment schedule. Each month the interest is round-half-up(balance × r) and the rest of the
 * annuity payment repays principal.
 *
 * The last instalment absorbs the accumulated rounding: it repays the whole remaining balance, and its
 * interest is the remainder of the same annuity payment. So all n payments are equal and the schedule
 * totals exactly payment × n (SPEC §6: total = payment × n, interest = total − P) while the principal
 * sums to P. That remainder differs from round(balance × r) by at most ((1 + r)^n − 1) / r centavos of
 * compounded rounding: ₱0.31 for 24 months at 2%.
 *
 * Only for amounts tiny against the term (e.g. ₱1,000 over 60 months) can that remainder come out
 * negative; the last instalment then charges round(balance × r) on the balance instead, so nothing is
 * ever negative. At a 0% rate the last instalment is just the balance. Read totals from the schedule
 * (`scheduleTotals`), never recompute them.
 */
export function buildSchedule({
  amountMinor,
  termMonths,
  monthlyRateBp,
  startDate,
}: ScheduleInput): Instalment[] {
  const payment = annuityPaymentMinor(amountMinor, termMonths, monthlyRateBp);
  const interestOn = (balance: number) =>
    Number(divRoundHalfUp(BigInt(balance) * BigInt(monthlyRateBp), BigInt(BP_PER_UNIT)));

  const schedule: Instalment[] = [];
  let balance = amountMinor;
  for (let number = 1; number <= termMonths; number++) {
    const dueDate = addMonthsClamped(startDate, number);
    let interest = interestOn(balance);
    let principal: number;
    if (number < termMonths) {
      // payment ≥ interest always (payment > P·r ≥ balance·r and rounding is monotone); the cap only
      // bites for a few centavos spread over many months.
      principal = Math.min(payment - interest, balance);
    } else {
      principal = balance;
      const remainder = payment - balance;
      // At 0% any remainder is pure rounding, never interest.
      if (monthlyRateBp > 0 && balance > 0 && remainder >= 0) interest = remainder;
    }
    balance -= principal;
    schedule.push({
      number,
      dueDate,
      paymentMinor: principal + interest,
      principalMinor: principal,
      interestMinor: interest,
      balanceMinor: balance,
    });
  }
  return schedule;
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
