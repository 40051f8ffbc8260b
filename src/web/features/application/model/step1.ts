import { z } from 'zod';
import { buildDisclosure, type Disclosure, defaultLoanProduct, isOnRule } from '../../../../domain/loan';
import { toMinor } from '../../../../domain/money';

/** The borrower side of the loan product; the server quotes with the same defaults (SPEC §6). */
export const loanProduct = defaultLoanProduct;

/** What step 1 hands to step 2 (SPEC §2.4): through router state and the saved draft. */
export const step1DataSchema = z.object({
  phone: z.string().min(1),
  amount: z.number().refine((n) => isOnRule(n, loanProduct.borrowerAmount)),
  termMonths: z.number().refine((n) => loanProduct.termsMonths.includes(n)),
  monthlyPaymentMinor: z.number().int().positive(),
});
export type Step1Data = z.infer<typeof step1DataSchema>;

/** Router state of /loan/info, or null when it is missing or not what step 1 sends. */
export function step1FromState(state: unknown): Step1Data | null {
  const parsed = z.object({ step1: step1DataSchema }).safeParse(state);
  return parsed.success ? parsed.data.step1 : null;
}

/**
 * Today's date in Manila, the product's time zone (SPEC §6), as the server dates its quotes. Only the
 * schedule's due dates depend on it; every figure in the step-1 summary is the same on any day.
 */
export function todayInLoanZone(now: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: 'Asia/Manila',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/** The full disclosure for whole pesos and a term, with the same domain math the server quotes with. */
export function estimateDisclosure(
  amount: number,
  termMonths: number,
  today = todayInLoanZone(),
): Disclosure {
  return buildDisclosure({
    amountMinor: toMinor(amount),
    termMonths,
    product: loanProduct,
    startDate: today,
  });
}
