import { divRoundHalfUp } from '../money';

// The amount and fee rules without zod: step 1 computes with them on a borrower's first load, where terms.ts
// (which builds its request schemas at import) would bring zod in (docs/decisions/052). terms.ts re-exports
// all of them.

/** An amount range in whole major units (pesos): allowed values are min, min + step, …, max. */
export interface AmountRule {
  readonly min: number;
  readonly max: number;
  readonly step: number;
}

/** Charged once, at disbursement. Both parts add up; both are zero by default (SPEC §6). */
export interface FeeConfig {
  readonly flatMinor: number;
  /** Percentage of the loan amount in basis points (100 bp = 1%). */
  readonly percentBp: number;
}

export const BP_PER_UNIT = 10_000;

/** Total fee for a loan: flat part plus the percentage of the amount, rounded half-up to the centavo. */
export function computeFeesMinor(amountMinor: number, fees: FeeConfig): number {
  const percentPart = Number(
    divRoundHalfUp(BigInt(amountMinor) * BigInt(fees.percentBp), BigInt(BP_PER_UNIT)),
  );
  return fees.flatMinor + percentPart;
}

export function isOnRule(value: number, { min, max, step }: AmountRule): boolean {
  return Number.isSafeInteger(value) && value >= min && value <= max && (value - min) % step === 0;
}

/**
 * Snaps a typed amount to the nearest allowed value (halves round up), then clamps to the range; used on
 * blur. Steps count from `min`. Idempotent because `max` is itself on a step. Not-a-number gives `min`.
 */
export function roundAndClamp(value: number, { min, max, step }: AmountRule): number {
  if (Number.isNaN(value)) return min;
  const snapped = min + Math.round((value - min) / step) * step;
  return Math.min(max, Math.max(min, snapped));
}

/** Khmer (០–៩) and full-width (０–９) digits are typed by km and zh keyboards; they mean 0–9. */
const localDigitZeros = [0x17e0, 0xff10];
const groupSeparators = /[,\s\u00a0\u202f\uff0c]/g;

/**
 * A whole amount typed by a person: digits with optional grouping commas or spaces, nothing else (no
 * decimals, signs or currency symbols). Grouping positions are not checked, so half-typed "1,0000" parses.
 * Returns null for anything else or beyond the safe-integer range.
 */
export function parseWholeAmount(text: string): number | null {
  let ascii = '';
  for (const char of text.trim()) {
    const code = char.codePointAt(0) ?? 0;
    const zero = localDigitZeros.find((z) => code >= z && code <= z + 9);
    ascii += zero === undefined ? char : String(code - zero);
  }
  const digits = ascii.replace(groupSeparators, '');
  if (!/^\d+$/.test(digits) || !/^\d/.test(ascii) || !/\d$/.test(ascii)) return null;
  const value = Number(digits);
  return Number.isSafeInteger(value) ? value : null;
}
