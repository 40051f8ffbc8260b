import * as z from 'zod/mini';
import { parseWholeAmount } from '../loan/terms';

/** Whole pesos as a number or as typed ("100,000"); anything else is not an amount. */
export const requestedAmount = z.pipe(
  z.transform((value: unknown) => (typeof value === 'string' ? (parseWholeAmount(value) ?? value) : value)),
  z.int({ error: 'AMOUNT_INVALID' }).check(z.positive({ error: 'AMOUNT_INVALID' })),
);
export const requestedTerm = z
  .int({ error: 'LOAN_TERM_NOT_OFFERED' })
  .check(z.positive({ error: 'LOAN_TERM_NOT_OFFERED' }));
/** The chosen product version (GET /api/products `versionId`); optional when only one product is offered. */
export const requestedVersion = z.optional(z.uuid({ error: 'PRODUCT_NOT_OFFERED' }));

/**
 * The step-1 request as the quote, the disclosure PDF and the submission read it. Whether the amount and term
 * are offered depends on the version and the borrower (`borrowerRequestIssues`), checked by the server after.
 */
export const loanQuoteRequest = z.object({
  amount: requestedAmount,
  termMonths: requestedTerm,
  productVersionId: requestedVersion,
});
