import { sql, type Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { loanBalance } from '../../../domain/loan/balance';
import { canWithdraw, runningStatuses } from '../../../domain/loan/status';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { ApplicationRow } from '../../lib/applications';
import { withdrawnMinor, withdrawnSql } from '../../lib/loan-balance';
import { lastDueDate } from '../../loans/loan-position';
import { proposedChangeOf } from '../../loans/terms-changes';

/**
 * The borrower's running loan, ready for a withdrawal of `amountMinor`: it must exist, be running and not
 * on hold (`canWithdraw`), and have that much available (`loanBalance`). With `lock` (inside the
 * withdrawal's transaction) the loan row is locked first and the withdrawn sum read after the lock, so
 * concurrent withdrawals queue here and each one sees the balance the previous one left. Without it (the
 * early check before a code is sent or spent) the sum comes with the row in one query.
 */
export async function loanForWithdrawal(
  db: AppDeps['db'] | Transaction<Database>,
  borrowerId: string,
  amountMinor: number,
  /** `today`: the lender's civil date and time zone, for the end of the withdrawal period. */
  options: { lock: boolean; today: string; timeZone: string },
): Promise<{ loan: ApplicationRow; availableMinor: number }> {
  const running = db
    .selectFrom('applications')
    .selectAll()
    .where('borrower_id', '=', borrowerId)
    .where('status', 'in', runningStatuses);
  let loan: ApplicationRow | undefined;
  let withdrawn: number;
  if (options.lock) {
    loan = await running.forUpdate().executeTakeFirst();
    withdrawn = loan ? await withdrawnMinor(db, loan.id) : 0;
  } else {
    const row = await running
      .select(withdrawnSql(sql.ref('applications.id')).as('withdrawn'))
      .executeTakeFirst();
    const { withdrawn: sum = 0, ...rest } = row ?? {};
    loan = row ? (rest as ApplicationRow) : undefined;
    withdrawn = Number(sum);
  }
  if (!loan || loan.approved_amount === null) throw new AppError('LOAN_NOT_FOUND');
  if (!canWithdraw(loan.status)) {
    throw new AppError('WITHDRAWALS_PAUSED', { params: { message: loan.status_message ?? '' } });
  }
  // Nothing is withdrawn on terms the borrower has not accepted (docs/decisions/018). With `lock` this is
  // read after the loan row lock, which every writer of a change takes first.
  if (await proposedChangeOf(db, loan.id)) throw new AppError('TERMS_CHANGE_AWAITS_YOU');
  // Interest runs from the first payout over the term: money paid out on or after the last due date could
  // not be repaid by any instalment (docs/decisions/010).
  const lastDue = await lastDueDate(db, loan, options.timeZone);
  if (lastDue !== null && options.today >= lastDue) {
    throw new AppError('WITHDRAWAL_PERIOD_ENDED', { params: { date: lastDue } });
  }
  const { availableMinor } = loanBalance({
    status: loan.status,
    approvedMinor: loan.approved_amount,
    withdrawnMinor: withdrawn,
  });
  if (amountMinor > availableMinor) {
    throw new AppError('AMOUNT_EXCEEDS_BALANCE', { fields: { amount: 'AMOUNT_EXCEEDS_BALANCE' } });
  }
  return { loan, availableMinor };
}

/** The withdrawal a code is for, without the plan: this loan, this amount, to this account. */
function withdrawalTarget(loan: ApplicationRow, amountMinor: number): string {
  return `loan=${loan.id};amount=${amountMinor};to=${loan.bank_name}|${loan.account_number}`;
}

/**
 * What a withdrawal code authorises: this loan, this amount, to this account, with the payment plan the
 * borrower was shown (`planDigest` of the re-disclosure, docs/decisions/010).
 */
export function withdrawalContext(loan: ApplicationRow, amountMinor: number, planDigest: string): string {
  return `${withdrawalTarget(loan, amountMinor)};plan=${planDigest}`;
}

/** Whether a code's context is for this loan, amount and account, whatever plan it was bound to. */
export function isContextForWithdrawal(context: string, loan: ApplicationRow, amountMinor: number): boolean {
  return context.startsWith(`${withdrawalTarget(loan, amountMinor)};plan=`);
}
