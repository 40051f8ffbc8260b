import type { Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import type { Database } from '../../db/schema';
import type { AppDeps } from '../../deps';
import type { ApplicationRow } from '../../lib/applications';
import { withdrawnMinor } from '../../lib/loan-balance';

/**
 * The borrower's running loan, ready for a withdrawal of `amountMinor`: it must exist, not be on hold,
 * and have that much available. Inside a transaction the loan row is locked, so concurrent withdrawals
 * queue here and each one sees the balance the previous one left.
 */
export async function loanForWithdrawal(
  db: AppDeps['db'] | Transaction<Database>,
  borrowerId: string,
  amountMinor: number,
  options: { lock: boolean },
): Promise<{ loan: ApplicationRow; availableMinor: number }> {
  let query = db
    .selectFrom('applications')
    .selectAll()
    .where('borrower_id', '=', borrowerId)
    .where('status', 'in', ['approved', 'on_hold']);
  if (options.lock) query = query.forUpdate();
  const loan = await query.executeTakeFirst();
  if (!loan || loan.approved_amount === null) throw new AppError('LOAN_NOT_FOUND');
  if (loan.status === 'on_hold') {
    throw new AppError('WITHDRAWALS_PAUSED', { params: { message: loan.status_message ?? '' } });
  }
  const availableMinor = loan.approved_amount - (await withdrawnMinor(db, loan.id));
  if (amountMinor > availableMinor) {
    throw new AppError('AMOUNT_EXCEEDS_BALANCE', { fields: { amount: 'AMOUNT_EXCEEDS_BALANCE' } });
  }
  return { loan, availableMinor };
}

/** What a withdrawal code authorises: this loan, this amount, to this account. */
export function withdrawalContext(loan: ApplicationRow, amountMinor: number): string {
  return `loan=${loan.id};amount=${amountMinor};to=${loan.bank_name}|${loan.account_number}`;
}
