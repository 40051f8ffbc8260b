import { type Kysely, type RawBuilder, sql } from 'kysely';
import { dropFiguresPerDay, keepFiguresPerDay, shard } from './032-dashboard-figures';

/**
 * Where a deep page of the Pending, Approved and Loan Servicing queues starts, without walking every entry
 * before it (issue #35, docs/decisions/069): page 2,000 skipped 19,990 entries of the queue's index (p95
 * 71 ms with 32 staff asking at 1 M applications). How many rows of each queue fall in each UTC hour of its
 * order column is kept in `dashboard_figures`, in the writing transaction (migration 039's machinery):
 * 'queue_pending' (status pending, by `submitted_at`) and 'queue_running' (approved or on hold, by
 * `decided_at`; a running loan without a decision time, which no use case writes, counts under the part '',
 * where the list puts it: first). The list sums the hours from the newest until it passes the page's
 * offset, and walks only the rows of that hour before the page. The status sets are written as literals,
 * as `awaitingDecisionStatuses` and `runningStatuses` say (the lists' partial indexes are declared so too).
 */
export const QUEUE_POSITION_FIGURES = { pending: 'queue_pending', running: 'queue_running' } as const;

const hour = (column: string) =>
  sql.raw(`coalesce(to_char(date_trunc('hour', r.${column} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24'), '')`);

const positions = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select 'queue_pending'::text as figure, ${hour('submitted_at')} as part, ${shard} as shard,
         ${sql.lit(sign)}::bigint as n, 0::bigint as amount
  from ${rows} r
  where r.status in ('pending')
  union all
  select 'queue_running'::text, ${hour('decided_at')}, ${shard}, ${sql.lit(sign)}::bigint, 0::bigint
  from ${rows} r
  where r.status in ('approved', 'on_hold')`;

const figures = Object.values(QUEUE_POSITION_FIGURES);

export async function up(db: Kysely<unknown>): Promise<void> {
  await keepFiguresPerDay(db, 'positions', 'applications', figures, positions);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropFiguresPerDay(db, 'positions', 'applications', figures);
}
