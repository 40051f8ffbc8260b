import { createHash } from 'node:crypto';
import { buildDisclosure, canonicalDisclosureJson, type Disclosure } from '../../domain/loan/disclosure';
import { type LoanTerms, loanTermsOf } from '../../domain/loan/loan-terms';
import { toMinor } from '../../domain/money';
import type { AppDeps } from '../deps';
import { todayIn } from '../lib/today';

export interface Quote {
  disclosure: Disclosure;
  /** SHA-256 of the canonical disclosure JSON: the borrower signs exactly these terms. */
  disclosureSha256: string;
  /** The terms the loan is signed under: stored with it (`applications.terms`). */
  terms: LoanTerms;
}

/** The terms a new loan is offered under today. */
export function offeredLoanTerms(deps: Pick<AppDeps, 'config'>): LoanTerms {
  return loanTermsOf(deps.config.loanProduct, deps.config.repaymentRules);
}

/** The full disclosure for an amount and term, computed by the server from the terms it offers. */
export function quoteLoan(deps: AppDeps, input: { amount: number; termMonths: number }): Quote {
  const terms = offeredLoanTerms(deps);
  const disclosure = buildDisclosure({
    amountMinor: toMinor(input.amount),
    termMonths: input.termMonths,
    currency: deps.config.loanProduct.currency,
    terms,
    startDate: todayIn(deps.config.timeZone),
  });
  return { disclosure, disclosureSha256: disclosureSha256(disclosure), terms };
}

export function disclosureSha256(disclosure: Disclosure): string {
  return createHash('sha256').update(canonicalDisclosureJson(disclosure)).digest('hex');
}
