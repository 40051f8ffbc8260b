import { sql, type Transaction } from 'kysely';
import { AppError } from '../../../domain/errors';
import { awaitsDecision, canTransition, type LoanStatus } from '../../../domain/loan/status';
import type { Database, User } from '../../db/schema';

/**
 * Locks an application for a decision to `to` (approved or rejected). The row lock plus the domain's
 * transition check make concurrent decisions queue: the first one wins, every later one finds it decided.
 */
export async function lockPendingApplication(
  trx: Transaction<Database>,
  staff: User,
  id: string,
  to: Extract<LoanStatus, 'approved' | 'rejected'>,
) {
  const row = await trx
    .selectFrom('applications')
    .selectAll()
    .where('id', '=', id)
    .forUpdate()
    .executeTakeFirst();
  if (!row) throw new AppError('NOT_FOUND');
  // A closed loan may become approved again, but only by a reversal, never by a decision.
  if (!awaitsDecision(row.status) || !canTransition(row.status, to)) throw new AppError('ALREADY_DECIDED');
  if (staff.phone && staff.phone === row.phone) throw new AppError('OWN_APPLICATION');
  return row;
}

export type { StaffContext as DecisionContext } from '../../loans/staff-context';

export const nowSql = sql<Date>`now()`;
