import { type Expression, type Kysely, sql, type Transaction } from 'kysely';
import { withdrawingDisbursementStatuses } from '../../domain/loan/balance';
import type { Database } from '../db/schema';
import { sqlList } from './sql-lists';

/**
 * The one SQL for money already taken from a loan: the sum of its requested and paid disbursements
 * (`withdrawingDisbursementStatuses`). Select it next to the loan row to save a round trip; the domain's
 * `loanBalance` turns it into what is available.
 *
 * Never fold it into a `select … for update`: under READ COMMITTED that statement's snapshot is taken before
 * it waits for the lock, so the sum would miss a withdrawal committed meanwhile. Lock first, then call
 * `withdrawnMinor` (a new statement, a fresh snapshot).
 */
export function withdrawnSql(applicationId: Expression<string>) {
  return sql<number>`(select coalesce(sum(d.amount), 0)::int8 from disbursements d
    where d.application_id = ${applicationId} and d.status in (${sqlList(withdrawingDisbursementStatuses)}))`;
}

/** `withdrawnSql` for one loan, as its own statement (e.g. right after locking the loan row). */
export async function withdrawnMinor(db: Kysely<Database> | Transaction<Database>, applicationId: string) {
  const row = await db
    .selectNoFrom(withdrawnSql(sql.val(applicationId)).as('withdrawn'))
    .executeTakeFirstOrThrow();
  return Number(row.withdrawn);
}
