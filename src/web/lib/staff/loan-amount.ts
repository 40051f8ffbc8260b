import { annuityPaymentMinor } from '../../../domain/loan/schedule';
import {
  type AmountRule,
  defaultLoanProduct,
  isStaffAmountAllowed,
  type LoanProduct,
  parseWholeAmount,
  roundAndClamp,
} from '../../../domain/loan/terms';
import { MINOR_PER_MAJOR } from '../../../domain/money';
import type { ApplicationProfile } from '../../../domain/schemas/staff';

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
 * The nearest amount staff may set to what was typed, offered (never applied by itself): the loan's current
 * amount stays as it is (a small loan may keep it while its term changes); any other typed amount is snapped
 * to a step and clamped to the staff range (domain `roundAndClamp`), then raised to cover what was already
 * withdrawn. Null for unreadable text.
 */
export function clampTypedAmount(
  text: string,
  rule: AmountRule,
  withdrawnMinor = 0,
  currentAmount: number | null = null,
): number | null {
  const typed = parseWholeAmount(text);
  if (typed === null) return null;
  if (typed === currentAmount) return typed;
  return Math.max(roundAndClamp(typed, rule), minimumAmountCovering(withdrawnMinor, rule));
}

/**
 * The monthly payment for a typed amount, or null while the amount is not one staff may set (domain
 * `isStaffAmountAllowed`: the current amount, or one in the staff range).
 */
export function monthlyPaymentFor(
  text: string,
  termMonths: number,
  monthlyRateBp: number,
  product: LoanProduct,
  currentAmount: number,
): number | null {
  const amount = parseWholeAmount(text);
  if (amount === null || !isStaffAmountAllowed(amount, currentAmount, product)) return null;
  return annuityPaymentMinor(amount * MINOR_PER_MAJOR, termMonths, monthlyRateBp);
}

/**
 * The rules staff changes to this loan follow: its own product version's staff range and terms (the
 * profile's `product`, docs/decisions/034), in the `LoanProduct` shape the domain's checks take.
 */
export function loanProductOfProfile(
  profile: Pick<ApplicationProfile, 'product' | 'monthlyRateBp'>,
): LoanProduct {
  return {
    ...defaultLoanProduct,
    borrowerAmount: profile.product.borrowerAmount,
    staffAmount: profile.product.staffAmount,
    termsMonths: profile.product.termsMonths,
    defaultTermMonths: profile.product.termsMonths[0] ?? defaultLoanProduct.defaultTermMonths,
    monthlyRateBp: profile.monthlyRateBp,
  };
}
