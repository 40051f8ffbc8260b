import { createHash } from 'node:crypto';
import { buildDisclosure, canonicalDisclosureJson, type Disclosure } from '../../domain/loan/disclosure';
import { toMinor } from '../../domain/money';
import type { AppDeps } from '../deps';
import { todayIn } from '../lib/today';

export interface Quote {
  disclosure: Disclosure;
  /** SHA-256 of the canonical disclosure JSON: the borrower signs exactly these terms. */
  disclosureSha256: string;
}

/** The full disclosure for an amount and term, computed by the server from its own product settings. */
export function quoteLoan(deps: AppDeps, input: { amount: number; termMonths: number }): Quote {
  const disclosure = buildDisclosure({
    amountMinor: toMinor(input.amount),
    termMonths: input.termMonths,
    product: deps.config.loanProduct,
    startDate: todayIn(deps.config.timeZone),
  });
  const disclosureSha256 = createHash('sha256').update(canonicalDisclosureJson(disclosure)).digest('hex');
  return { disclosure, disclosureSha256 };
}
