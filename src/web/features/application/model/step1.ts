import * as z from 'zod/mini';
import {
  buildDisclosure,
  type Disclosure,
  isOnRule,
  type LoanProduct,
  loanTermsOf,
  type RepaymentRules,
} from '../../../../domain/loan';
import { toMinor } from '../../../../domain/money';
import { todayIn } from '../../../lib/format';

/**
 * What step 1 hands to step 2 (SPEC §2.4): through router state and the saved draft. Only its shape is
 * checked here; the amount and term rules are the server's, which checks them again on every quote and
 * submission.
 */
export const step1DataSchema = z.object({
  phone: z.string().check(z.minLength(1)),
  amount: z.int().check(z.positive()),
  termMonths: z.int().check(z.positive()),
  monthlyPaymentMinor: z.int().check(z.positive()),
});
export type Step1Data = z.infer<typeof step1DataSchema>;

/** Router state of /loan/info, or null when it is missing or not what step 1 sends. */
export function step1FromState(state: unknown): Step1Data | null {
  const parsed = z.object({ step1: step1DataSchema }).safeParse(state);
  return parsed.success ? parsed.data.step1 : null;
}

/** Whether step-1 data (perhaps from an old draft) is still an amount and term the lender offers. */
export function isOfferedBy(step1: Step1Data, product: LoanProduct): boolean {
  return isOnRule(step1.amount, product.borrowerAmount) && product.termsMonths.includes(step1.termMonths);
}

/**
 * The full disclosure for whole pesos and a term, with the same domain math and the same configured
 * product (GET /api/settings) the server quotes with.
 */
export function estimateDisclosure(
  amount: number,
  termMonths: number,
  settings: { product: LoanProduct; rules: RepaymentRules; timeZone: string },
  now: Date = new Date(),
): Disclosure {
  return buildDisclosure({
    amountMinor: toMinor(amount),
    termMonths,
    currency: settings.product.currency,
    terms: loanTermsOf(settings.product, settings.rules),
    startDate: todayIn(settings.timeZone, now),
  });
}
