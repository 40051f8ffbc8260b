import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { parseLoanTerms } from '../../../domain/loan/loan-terms';
import { previewWithdrawal, type WithdrawalPreview } from '../../../domain/loan/repayments';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { ApplicationRow } from '../../lib/applications';
import { feesOnPaidOut, loadLoanRecords } from '../../loans/loan-position';

export interface WithdrawalPlan {
  preview: WithdrawalPreview;
  /** Withdrawals requested but not yet paid or failed, counted as paid out on the preview's day. */
  inProcessingMinor: number;
  /** The `after` figures (with the amount and the day they assume) as one short string. */
  digest: string;
}

/**
 * The digest a withdrawal code is bound to: everything the borrower is shown about the plan after this
 * withdrawal, and the amount and payout day those figures assume. Not a secret (the code's HMAC is), only
 * a fingerprint: equal figures give equal digests on any server.
 */
export function planDigest(preview: WithdrawalPreview): string {
  const a = preview.after;
  const canonical = [
    'v1',
    preview.amountMinor,
    preview.payoutOn,
    a.monthlyPaymentMinor,
    a.fromInstalment ?? '-',
    a.fromDueDate ?? '-',
    a.totalRepayableMinor,
    a.totalInterestMinor,
    a.remainingToRepayMinor,
  ].join('|');
  return createHash('sha256').update(canonical).digest('base64url').slice(0, 32);
}

/**
 * Re-disclosure (docs/decisions/010): the loan's payment plan before and after withdrawing `amountMinor`,
 * for a payout on `payoutOn` (today in the lender's time zone). Paid payouts count on the day they were
 * paid; withdrawals still being processed count as paid out on `payoutOn` as well, so the "before" the
 * borrower sees already includes them. Inside a transaction, call it after locking the loan row.
 */
export async function withdrawalPlan(
  db: Kysely<Database> | Transaction<Database>,
  loan: ApplicationRow,
  amountMinor: number,
  deps: Pick<AppDeps, 'config'>,
  payoutOn: string,
): Promise<WithdrawalPlan> {
  const { records, requestedMinor } = await loadLoanRecords(db, loan, deps.config.timeZone, {
    withRequested: true,
  });
  const pending = requestedMinor.map((amountMinor) => ({ amountMinor, paidOn: payoutOn }));
  const disbursements = [...records.disbursements, ...pending];
  // Fees count toward the total-cost cap on the principal paid out: here all of it, this withdrawal too
  // (the plan after it is the one the code is bound to; a permitted product never reaches the cap anyway).
  const paidOut = disbursements.reduce((sum, d) => sum + d.amountMinor, amountMinor);
  const preview = previewWithdrawal(
    { ...records, feesMinor: feesOnPaidOut(parseLoanTerms(loan.terms), paidOut), disbursements },
    { amountMinor, payoutOn },
  );
  return {
    preview,
    inProcessingMinor: pending.reduce((sum, d) => sum + d.amountMinor, 0),
    digest: planDigest(preview),
  };
}
