import { createHash } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { parseLoanTerms, payoutFeeMinor } from '../../../domain/loan/loan-terms';
import { previewWithdrawal, type WithdrawalPreview } from '../../../domain/loan/repayments';
import type { Database } from '../../db/schema';
import type { ApplicationRow } from '../../lib/applications';
import { loadLoanRecords } from '../../loans/loan-position';

export interface WithdrawalPlan {
  preview: WithdrawalPreview;
  /** Withdrawals requested but not yet paid or failed, counted as paid out on the preview's day. */
  inProcessingMinor: number;
  /** The fee this withdrawal would take (the loan's fee terms); recorded with it. */
  feeMinor: number;
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
    'v2',
    preview.amountMinor,
    preview.feeMinor,
    preview.payoutOn,
    a.monthlyPaymentMinor,
    a.fromInstalment ?? '-',
    a.fromDueDate ?? '-',
    a.totalRepayableMinor,
    a.totalInterestMinor,
    a.remainingToRepayMinor,
    a.totalCostMinor,
    a.effectiveAnnualRate,
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
  deps: { config: { timeZone: string } },
  payoutOn: string,
): Promise<WithdrawalPlan> {
  const { records, requested } = await loadLoanRecords(db, loan, deps.config.timeZone, {
    withRequested: true,
  });
  const pending = requested.map((d) => ({ ...d, paidOn: payoutOn }));
  const disbursements = [...records.disbursements, ...pending];
  // The loan's own fee terms; its flat fee rides on its first payout not failed.
  const feeMinor = payoutFeeMinor(parseLoanTerms(loan.terms), amountMinor, disbursements.length === 0);
  if (feeMinor >= amountMinor) {
    throw new AppError('WITHDRAWAL_BELOW_FEE', {
      fields: { amount: 'WITHDRAWAL_BELOW_FEE' },
      params: { feeMinor },
    });
  }
  const preview = previewWithdrawal({ ...records, disbursements }, { amountMinor, feeMinor, payoutOn });
  return {
    preview,
    inProcessingMinor: pending.reduce((sum, d) => sum + d.amountMinor, 0),
    feeMinor,
    digest: planDigest(preview),
  };
}
