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
  if (await isOwnApplication(trx, staff, row.borrower_id)) throw new AppError('OWN_APPLICATION');
  return row;
}

/**
 * Whether the application is the staff member's own (issue #15): by the account, never by the phone typed
 * into the form (a borrower typing an officer's phone must not keep that officer from deciding). Own means
 * the borrower account is the staff member's, or that account's phone is the staff member's own phone.
 */
async function isOwnApplication(trx: Transaction<Database>, staff: User, borrowerId: string) {
  if (borrowerId === staff.id) return true;
  if (!staff.phone) return false;
  const borrower = await trx
    .selectFrom('users')
    .select('phone')
    .where('id', '=', borrowerId)
    .executeTakeFirst();
  return borrower?.phone === staff.phone;
}

export type { StaffContext as DecisionContext } from '../../loans/staff-context';

export const nowSql = sql<Date>`now()`;
