import { annuityPaymentMinor } from '../../../domain/loan/schedule';
import { type AmountRule, isOnRule, parseWholeAmount, roundAndClamp } from '../../../domain/loan/terms';
import { MINOR_PER_MAJOR } from '../../../domain/money';

/**
 * The smallest allowed amount (whole pesos) that covers what was already withdrawn: the staff minimum,
 * or the first step at or above the withdrawn amount.
 */
export function minimumAmountCovering(withdrawnMinor: number, rule: AmountRule): number {
  const withdrawnPesos = Math.ceil(withdrawnMinor / MINOR_PER_MAJOR);
  if (withdrawnPesos <= rule.min) return rule.min;
  const steps = Math.ceil((withdrawnPesos - rule.min) / rule.step);
  return Math.min(rule.max, rule.min + steps * rule.step);
}

/**
 * On blur: the typed amount snapped to a step and clamped to the staff range (domain `roundAndClamp`),
 * then raised to cover what was already withdrawn. Unreadable text is left for the user to fix.
 */
export function clampTypedAmount(text: string, rule: AmountRule, withdrawnMinor = 0): number | null {
  const typed = parseWholeAmount(text);
  if (typed === null) return null;
  return Math.max(roundAndClamp(typed, rule), minimumAmountCovering(withdrawnMinor, rule));
}

/** The monthly payment for a typed amount, or null while the amount is not an allowed one. */
export function monthlyPaymentFor(
  text: string,
  termMonths: number,
  monthlyRateBp: number,
  rule: AmountRule,
): number | null {
  const amount = parseWholeAmount(text);
  if (amount === null || !isOnRule(amount, rule)) return null;
  return annuityPaymentMinor(amount * MINOR_PER_MAJOR, termMonths, monthlyRateBp);
}
