import { type Expression, type SqlBool, sql, type Transaction, type UpdateObject } from 'kysely';
import { AppError } from '../../../domain/errors';
import { canApply, type LoanStatus, statusesBefore } from '../../../domain/loan/status';
import type { Database, User } from '../../db/schema';
import type { AppDeps } from '../../deps';
import { sqlList } from '../../lib/sql-lists';
import { lockApplication } from '../../loans/lock-application';

/**
 * Decides an application (`to`: approved or rejected) with ONE conditional statement (`decideIfStill`).
 * Concurrent decisions queue on the row inside PostgreSQL and every later one finds the status changed and
 * updates nothing, without a round trip to the app while it holds the lock (issue #12): the first wins, the
 * others fail fast with "already decided" (or why else nothing changed).
 */
export async function decidePendingApplication(
  trx: Transaction<Database>,
  staff: User,
  id: string,
  to: Decision,
  set: UpdateObject<Database, 'applications'>,
) {
  const after = await decideIfStill(trx, staff, id, to, set);
  if (after) return after;

  // Nothing changed: say why (no lock needed, the answer is a refusal either way).
  const row = await trx
    .selectFrom('applications')
    .select(['status', 'borrower_id'])
    .where('id', '=', id)
    .executeTakeFirst();
  assertDecidable(row, to);
  if (await isOwnApplication(trx, staff, row.borrower_id)) throw new AppError('OWN_APPLICATION');
  throw new AppError('ALREADY_DECIDED');
}

/**
 * The decision's one statement: application `id` changes by `set` only while it still awaits a decision
 * that may become `to`, meets `conditions`, and was not made with the staff member's own phone. `set` may
 * refer to the row's current values as `applications.<column>`. Answers the row after with what it held
 * before (for the audit event), or undefined when it did not qualify.
 */
export function decideIfStill(
  trx: Transaction<Database>,
  staff: User,
  id: string,
  to: Decision,
  set: UpdateObject<Database, 'applications'>,
  conditions: Expression<SqlBool>[] = [],
) {
  const from = statusesBefore(decisionEvent[to]);
  let update = trx
    .updateTable('applications')
    .from('applications as before')
    .set(set)
    .whereRef('before.id', '=', 'applications.id')
    .where('applications.id', '=', id)
    .where(sql<SqlBool>`applications.status in (${sqlList(from)})`);
  for (const condition of conditions) update = update.where(condition);
  return update
    .where(notOwnApplicationSql(staff))
    .returningAll('applications')
    .returning([
      'before.status as before_status',
      'before.approved_amount as before_approved_amount',
      'before.credit_score as before_credit_score',
    ])
    .executeTakeFirst();
}

type Decision = Extract<LoanStatus, 'approved' | 'rejected'>;
const decisionEvent = { approved: 'approve', rejected: 'reject' } as const;

/** The first two reasons a decision is refused, in this order: no such application, or already decided. */
function assertDecidable(row: { status: LoanStatus } | undefined, to: Decision): asserts row {
  if (!row) throw new AppError('NOT_FOUND');
  // Only an application awaiting a decision can be decided (a closed loan reopens by a reversal, never so).
  if (!canApply(decisionEvent[to], row.status)) throw new AppError('ALREADY_DECIDED');
}

/**
 * Runs a decision on application `id` once the one in flight for it (if any) is done (docs/decisions/024), and
 * after one plain read (one for all the decisions released together): once one of them has decided, the
 * later ones are refused here, without a transaction or a row lock. The read only saves work; the
 * decision's own conditional update or row lock is what makes exactly one win, on any number of instances.
 */
export function decideInTurn<T>(
  deps: AppDeps,
  id: string,
  to: Decision,
  decide: () => Promise<T>,
): Promise<T> {
  return deps.perRecord.run(`application:${id}`, async (batch) => {
    const row = await batch.once('status', () =>
      deps.db.selectFrom('applications').select('status').where('id', '=', id).executeTakeFirst(),
    );
    assertDecidable(row, to);
    return decide();
  });
}

/**
 * Locks an application for a decision that needs a look at the row first (four-eyes, a proposed change of
 * terms): the row lock plus the domain's transition check make concurrent decisions queue; the first wins,
 * every later one finds it decided.
 */
export async function lockPendingApplication(
  trx: Transaction<Database>,
  staff: User,
  id: string,
  to: Decision,
) {
  const row = await lockApplication(trx, id);
  assertDecidable(row, to);
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

/** The same rule inside a conditional update on `applications`: true when it is NOT the staff member's own. */
function notOwnApplicationSql(staff: User) {
  return staff.phone
    ? sql<SqlBool>`applications.borrower_id <> ${staff.id} and not exists (
        select 1 from users own where own.id = applications.borrower_id and own.phone = ${staff.phone})`
    : sql<SqlBool>`applications.borrower_id <> ${staff.id}`;
}

export type { StaffContext as DecisionContext } from '../../auth/staff-context';

export const nowSql = sql<Date>`now()`;
