import type { Transaction } from 'kysely';
import { AppError, type ErrorCode } from '../../domain/errors';
import { isRunning } from '../../domain/loan/status';
import type { Database } from '../db/schema';
import { lockApplication } from './lock-application';

/**
 * A running loan (approved or on hold: `isRunning`), locked for a servicing change. The status is checked
 * after the lock, inside the caller's transaction, so a loan cannot stop running between the check and the
 * change. Anything else (pending, rejected, closed, unknown) is refused with `notRunning` ("loan record
 * not found" for servicing; the Update Loan screen has always been answered a plain "not found").
 */
export async function lockRunningLoan(
  trx: Transaction<Database>,
  id: string,
  notRunning: ErrorCode = 'LOAN_NOT_FOUND',
) {
  const loan = await lockApplication(trx, id, notRunning);
  if (!isRunning(loan.status)) throw new AppError(notRunning);
  return loan;
}
