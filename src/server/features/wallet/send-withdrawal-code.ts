import { AppError } from '../../../domain/errors';
import { formatMoney, toMinor } from '../../../domain/money';
import { issueCode } from '../../auth/verification-codes';
import type { User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { today } from '../../lib/clock';
import { loanForWithdrawal, withdrawalContext } from './open-loan';

/**
 * Sends a withdrawal code to the borrower's own phone — never anywhere else, and never shown to staff.
 * The code is bound to the amount and the destination account.
 */
export async function sendWithdrawalCode(deps: AppDeps, borrower: User, amount: number) {
  if (!borrower.phone) throw new AppError('LOAN_NOT_FOUND');
  const amountMinor = toMinor(amount);
  const { loan } = await loanForWithdrawal(deps.db, borrower.id, amountMinor, {
    lock: false,
    today: today(deps),
    timeZone: deps.config.timeZone,
  });
  const destination = `${loan.bank_name} ****${loan.account_number.slice(-4)}`;
  return issueCode(
    {
      db: deps.db,
      secret: deps.config.sessionSecret,
      notifier: deps.notifier,
      resendAfterSeconds: deps.config.codeResendSeconds,
    },
    { phone: borrower.phone, purpose: 'withdrawal', context: withdrawalContext(loan, amountMinor) },
    (code) =>
      `Hiram: your withdrawal code is ${code} for ${formatMoney(amountMinor, { locale: 'en' })} to ${destination}. ` +
      'It expires in 5 minutes. We will never ask you for this code or for a fee to release your loan.',
  );
}
