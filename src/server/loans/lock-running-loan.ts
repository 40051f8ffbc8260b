import type { Transaction } from 'kysely';
import { AppError } from '../../domain/errors';
import { isRunning } from '../../domain/loan/status';
import type { Database } from '../db/schema';

/**
 * A running loan (approved or on hold: `isRunning`), locked for a servicing change. The status is checked
 * after the lock, inside the caller's transaction, so a loan cannot stop running between the check and the
 * change. Anything else (pending, rejected, closed, unknown) is "loan not found".
 */
export async function lockRunningLoan(trx: Transaction<Database>, id: string) {
  const loan = await trx
    .selectFrom('applications')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!loan || !isRunning(loan.status)) throw new AppError('LOAN_NOT_FOUND');
  return loan;
}
