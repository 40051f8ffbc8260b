import { AppError } from '../../../domain/errors';
import { toMinor } from '../../../domain/money';
import { codeSms } from '../../../domain/sms-texts';
import { codeSendingDeps, issueCode } from '../../auth/verification-codes';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { loanForWithdrawal, withdrawalContext } from './open-loan';
import { withdrawalPlan } from './withdrawal-plan';

/**
 * Sends a withdrawal code to the borrower's own phone — never anywhere else, and never shown to staff.
 * The code is bound to the amount, the destination account and the payment plan the borrower was shown:
 * `planDigest` must be the one the preview gives for the same amount now (docs/decisions/010).
 */
export async function sendWithdrawalCode(
  deps: AppDeps,
  borrower: User,
  input: { amount: number; planDigest?: string | undefined },
  clientIp: string,
) {
  if (!borrower.phone) throw new AppError('LOAN_NOT_FOUND');
  const amountMinor = toMinor(input.amount);
  const payoutOn = today(deps);
  const { loan } = await loanForWithdrawal(deps.db, borrower.id, amountMinor, {
    lock: false,
    today: payoutOn,
    timeZone: deps.config.timeZone,
  });
  const plan = await withdrawalPlan(deps.db, loan, amountMinor, deps, payoutOn);
  // Only for the figures on the borrower's screen: none shown, or shown before something changed, is refused.
  if (input.planDigest !== plan.digest) throw new AppError('WITHDRAWAL_PREVIEW_OUTDATED');
  const destination = `${loan.bank_name} ****${loan.account_number.slice(-4)}`;
  return issueCode(
    codeSendingDeps(deps),
    clientIp,
    {
      phone: borrower.phone,
      purpose: 'withdrawal',
      context: withdrawalContext(loan, amountMinor, plan.digest),
    },
    // In the borrower's stored language (issue #36), with the amount and account it authorises.
    (code) => codeSms.withdrawal(borrower.language, code, amountMinor, destination),
  );
}
