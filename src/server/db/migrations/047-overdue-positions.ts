import { type Kysely, type RawBuilder, sql } from 'kysely';
import { dropFiguresPerDay, keepFiguresPerDay, shard } from './032-dashboard-figures';

/**
 * Where a deep page of the overdue queue starts, and the queue's exact total (issue #35,
 * docs/decisions/069): page 2,000 skipped 19,990 entries of the overdue index (p95 84 ms with 32 staff asking
 * at 1 M applications). Which loans are overdue changes with the day, not only with the writes, so running
 * loans are counted per pair of days, 'overdue_pairs' in `queue_counts` (migration 046; part 'YYYY-MM-DD/YYYY-MM-DD':
 * the next due date, the queue's order, and the day the loan becomes overdue by its own grace days), kept in
 * the writing transaction (migration 039's machinery). On any day the queue's loans per due date are the
 * pairs whose second day has come. The predicate is the queue's (`unpaidRunningLoanSql` with an
 * `overdue_from`), written as literals.
 */
export const OVERDUE_PAIRS = 'overdue_pairs';

const day = (column: string) => sql.raw(`to_char(r.${column}, 'YYYY-MM-DD')`);

const pairs = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select ${sql.lit(OVERDUE_PAIRS)}::text as figure, ${day('next_due_on')} || '/' || ${day('overdue_from')} as part,
         ${shard} as shard, ${sql.lit(sign)}::bigint as n, 0::bigint as amount
  from ${rows} r
  where r.status in ('approved', 'on_hold') and r.next_due_on is not null and r.overdue_from is not null`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await keepFiguresPerDay(db, 'overdue_positions', 'applications', [OVERDUE_PAIRS], pairs, 'queue_counts');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropFiguresPerDay(db, 'overdue_positions', 'applications', [OVERDUE_PAIRS], 'queue_counts');
}
