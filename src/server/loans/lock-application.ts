import type { Transaction } from 'kysely';
import { AppError, type ErrorCode } from '../../domain/errors';
import type { Database } from '../db/schema';

/**
 * The application (or loan) row, locked `for update` in the caller's transaction: the lock every decision,
 * terms change and money event of one application queues on. A missing row is refused with `missing`
 * (a plain "not found" unless the caller's screen has always said otherwise); the status checks stay with
 * the caller, after the lock, so the row cannot move between the check and the change.
 */
export async function lockApplication(
  trx: Transaction<Database>,
  id: string,
  missing: ErrorCode = 'NOT_FOUND',
) {
  const row = await trx
    .selectFrom('applications')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError(missing);
  return row;
}
