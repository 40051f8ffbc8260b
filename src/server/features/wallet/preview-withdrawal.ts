import { AppError } from '../../../domain/errors';
import { toMinor } from '../../../domain/money';
import type { WithdrawalPreviewResponse } from '../../../domain/schemas/wallet';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { loanForWithdrawal } from './open-loan';
import { withdrawalPlan } from './withdrawal-plan';

/**
 * What withdrawing `amount` today would do to the borrower's payments (re-disclosure, issue #10), refused
 * exactly as sending a code would be. The answer's `planDigest` is what the code request must carry.
 */
export async function previewWithdrawalFor(
  deps: AppDeps,
  borrower: User,
  amount: number,
): Promise<WithdrawalPreviewResponse> {
  if (!borrower.phone) throw new AppError('LOAN_NOT_FOUND');
  const amountMinor = toMinor(amount);
  const payoutOn = today(deps);
  const { loan } = await loanForWithdrawal(deps.db, borrower.id, amountMinor, {
    lock: false,
    today: payoutOn,
    timeZone: deps.config.timeZone,
  });
  const { preview, inProcessingMinor, digest } = await withdrawalPlan(
    deps.db,
    loan,
    amountMinor,
    deps,
    payoutOn,
  );
  return {
    amountMinor,
    feeMinor: preview.feeMinor,
    netMinor: preview.netMinor,
    payoutOn,
    termMonths: loan.term_months,
    inProcessingMinor,
    before: preview.before,
    after: preview.after,
    planDigest: digest,
  };
}
