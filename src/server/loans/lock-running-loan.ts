import type { Transaction } from 'kysely';
import { AppError } from '../../domain/errors';
import type { Database } from '../db/schema';

/** A running loan (approved or on hold), locked for a servicing change; anything else is "not found". */
export async function lockRunningLoan(trx: Transaction<Database>, id: string) {
  const loan = await trx
    .selectFrom('applications')
    .selectAll()
    .where('id', '=', id)
    .where('status', 'in', ['approved', 'on_hold'])
    .forUpdate()
    .executeTakeFirst();
  if (!loan) throw new AppError('LOAN_NOT_FOUND');
  return loan;
}
