import { divRoundHalfUp } from '../money';
import { BP_PER_UNIT } from './amount-rule';

/**
 * Rates are exact decimal strings ('0.02', '0.24', '0.268242') for display and storage, with trailing
 * zeros trimmed ('0' for zero). Monthly rate and APR are exact (whole basis points need at most 4
 * decimals); the effective annual rate is rounded half-up to EFFECTIVE_RATE_DECIMALS — 0.0001% —
 * finer than any display needs and stable enough to hash.
 */
export const EFFECTIVE_RATE_DECIMALS = 6;

/** `scaled` / 10^decimals as decimal text, trailing zeros trimmed. */
function scaledToDecimalString(scaled: bigint, decimals: number): string {
  if (scaled < 0n) return `-${scaledToDecimalString(-scaled, decimals)}`;
  const digits = scaled.toString().padStart(decimals + 1, '0');
  const fraction = digits.slice(-decimals).replace(/0+$/, '');
  const whole = digits.slice(0, -decimals);
  return fraction ? `${whole}.${fraction}` : whole;
}

function assertBp(bp: number): void {
  if (!Number.isSafeInteger(bp) || bp < 0)
    throw new Error(`Expected whole non-negative basis points, got ${bp}`);
}

/** 200 → '0.02'. */
export function bpToDecimalString(bp: number): string {
  assertBp(bp);
  return scaledToDecimalString(BigInt(bp), 4);
}

export function monthlyRateString(monthlyRateBp: number): string {
  return bpToDecimalString(monthlyRateBp);
}

/** APR = 12·r (nominal, SPEC §6). */
export function aprString(monthlyRateBp: number): string {
  return bpToDecimalString(12 * monthlyRateBp);
}

/** (1 + r)^12 − 1 computed as an exact fraction, then rounded half-up: 200 bp → '0.268242'. */
export function effectiveAnnualRateString(monthlyRateBp: number): string {
  assertBp(monthlyRateBp);
  const one = BigInt(BP_PER_UNIT) ** 12n;
  const grown = BigInt(BP_PER_UNIT + monthlyRateBp) ** 12n;
  return scaledToDecimalString(
    divRoundHalfUp((grown - one) * 10n ** BigInt(EFFECTIVE_RATE_DECIMALS), one),
    EFFECTIVE_RATE_DECIMALS,
  );
}

/** Net present value of the repayments at monthly rate `i`, minus what was advanced. */
function netPresentValue(advanceMinor: number, paymentsMinor: readonly number[], i: number): number {
  const discount = 1 / (1 + i);
  let factor = 1;
  let total = -advanceMinor;
  for (const payment of paymentsMinor) {
    factor *= discount;
    total += payment * factor;
  }
  return total;
}

/**
 * Monthly internal rate of return: the i with advance = Σ payment_k / (1 + i)^k (payments at months
 * 1…n). Bisection with only + − × ÷ (never Math.pow, whose precision engines may choose), so the
 * result is bit-identical in Node and every browser.
 */
export function monthlyIrr(advanceMinor: number, paymentsMinor: readonly number[]): number {
  if (!(advanceMinor > 0)) throw new Error('The amount advanced must be positive');
  if (netPresentValue(advanceMinor, paymentsMinor, 0) < 0)
    throw new Error('Repayments are less than the advance');
  let low = 0;
  let high = 1;
  while (netPresentValue(advanceMinor, paymentsMinor, high) > 0) {
    high *= 2;
    if (high > 1e6) throw new Error('Internal rate of return out of range');
  }
  for (let step = 0; step < 200; step++) {
    const mid = (low + high) / 2;
    if (mid === low || mid === high) break;
    if (netPresentValue(advanceMinor, paymentsMinor, mid) > 0) low = mid;
    else high = mid;
  }
  return (low + high) / 2;
}

/**
 * Effective annual rate (1 + IRR)^12 − 1 of real cash flows, e.g. an advance net of fees against the
 * schedule. toFixed is exactly specified by ECMAScript, so the rounding is reproducible too.
 */
export function effectiveAnnualRateFromCashFlows(
  advanceMinor: number,
  paymentsMinor: readonly number[],
): string {
  const growth = 1 + monthlyIrr(advanceMinor, paymentsMinor);
  let yearly = 1;
  for (let month = 0; month < 12; month++) yearly *= growth;
  const fixed = (yearly - 1).toFixed(EFFECTIVE_RATE_DECIMALS);
  return scaledToDecimalString(BigInt(fixed.replace('.', '')), EFFECTIVE_RATE_DECIMALS);
}

/** A cash flow of a loan `atMonths` after its start: negative when money goes to the borrower. */
export interface DatedFlow {
  atMonths: number;
  amountMinor: number;
}

/**
 * Present value at monthly rate `i` with the loan's own convention: whole months compound, a part of a month
 * is simple interest pro rata (as interest is charged for a part month), so a single payout repaid on its
 * schedule gives back exactly the contractual rate. Only + − × ÷, like `monthlyIrr`.
 */
function presentValue(flows: readonly DatedFlow[], i: number): number {
  let total = 0;
  for (const flow of flows) {
    const whole = Math.floor(flow.atMonths);
    let factor = 1 + i * (flow.atMonths - whole);
    for (let month = 0; month < whole; month++) factor *= 1 + i;
    total += flow.amountMinor / factor;
  }
  return total;
}

/**
 * The effective annual rate of a loan's actual cash flows (issue #31: payouts net of the fees taken from
 * them, on the days they are paid, against the payments): the monthly i with Σ flow / growth(t) = 0, then
 * (1 + i)^12 − 1, rounded as `effectiveAnnualRateFromCashFlows`.
 */
export function effectiveAnnualRateOfFlows(flows: readonly DatedFlow[]): string {
  if (presentValue(flows, 0) < 0) throw new Error('Repayments are less than what was paid out');
  let low = 0;
  let high = 1;
  while (presentValue(flows, high) > 0) {
    high *= 2;
    if (high > 1e6) throw new Error('Internal rate of return out of range');
  }
  for (let step = 0; step < 200; step++) {
    const mid = (low + high) / 2;
    if (mid === low || mid === high) break;
    if (presentValue(flows, mid) > 0) low = mid;
    else high = mid;
  }
  const growth = 1 + (low + high) / 2;
  let yearly = 1;
  for (let month = 0; month < 12; month++) yearly *= growth;
  const fixed = (yearly - 1).toFixed(EFFECTIVE_RATE_DECIMALS);
  return scaledToDecimalString(BigInt(fixed.replace('.', '')), EFFECTIVE_RATE_DECIMALS);
}
