import { type Kysely, type RawBuilder, sql } from 'kysely';
import { createFiguresTable, dropFiguresPerDay, keepFiguresPerDay, shard } from './032-dashboard-figures';
import { ANNOUNCING_TABLES as ANNOUNCING_BEFORE } from './045-dashboard-today-quarters';

/**
 * Where a deep page of the Pending, Approved, Loan Servicing and overdue queues starts, without walking every
 * entry before it, and each queue's exact total (issue #35, docs/decisions/069): page 2,000 skipped 19,990
 * entries of the queue's index (p95 71 ms with 32 staff asking at 1 M applications; overdue 84). How many
 * rows of each queue fall in each UTC hour of its order column is kept in `queue_counts`, in the writing
 * transaction (migration 039's machinery, in a table of `dashboard_figures`' shape): 'queue_pending' (status
 * pending, by `submitted_at`) and 'queue_running' (approved or on hold, by `decided_at`; a running loan
 * without a decision time, which no use case writes, counts under the part '', where the list puts it:
 * first), and each queue's total ('queue_pending_total', 'queue_running_total'). The list sums the hours
 * from the newest until it passes the page's offset, and walks only the rows of that hour before the page.
 *
 * Apart from `dashboard_figures`, which nearly every write changes (a sign-up, a complaint, a payout): the
 * lists reading these counts are forgotten by the answer caches only when the queues' rows change. The
 * status sets are written as literals, as `awaitingDecisionStatuses` and `runningStatuses` say.
 */
export const QUEUE_POSITION_FIGURES = {
  pending: { hours: 'queue_pending', total: 'queue_pending_total' },
  running: { hours: 'queue_running', total: 'queue_running_total' },
} as const;

/** Tables whose changes are announced to the answer caches: the counts too, which the lists read. */
export const ANNOUNCING_TABLES = [...ANNOUNCING_BEFORE, 'queue_counts'] as const;

const hour = (column: string) =>
  sql.raw(`coalesce(to_char(date_trunc('hour', r.${column} at time zone 'UTC'), 'YYYY-MM-DD"T"HH24'), '')`);

const inQueue = (queue: keyof typeof QUEUE_POSITION_FIGURES, column: string, predicate: string) => {
  const { hours, total } = QUEUE_POSITION_FIGURES[queue];
  return (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
    select ${sql.lit(hours)}::text as figure, ${hour(column)} as part, ${shard} as shard,
           ${sql.lit(sign)}::bigint as n, 0::bigint as amount
    from ${rows} r where ${sql.raw(predicate)}
    union all
    select ${sql.lit(total)}::text, '', ${shard}, ${sql.lit(sign)}::bigint, 0::bigint
    from ${rows} r where ${sql.raw(predicate)}`;
};

/**
 * The overdue queue changes with the day as well as with the writes, so its running loans are counted per
 * pair of days, 'overdue_pairs' (part 'YYYY-MM-DD/YYYY-MM-DD': the next due date, the queue's order, and the
 * day the loan becomes overdue by its own grace days). On any day the queue's loans per due date are the
 * pairs whose second day has come. The predicate is the queue's (`unpaidRunningLoanSql` with an
 * `overdue_from`).
 */
export const OVERDUE_PAIRS = 'overdue_pairs';

const day = (column: string) => sql.raw(`to_char(r.${column}, 'YYYY-MM-DD')`);

const overduePairs = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select ${sql.lit(OVERDUE_PAIRS)}::text, ${day('next_due_on')} || '/' || ${day('overdue_from')}, ${shard},
         ${sql.lit(sign)}::bigint, 0::bigint
  from ${rows} r
  where r.status in ('approved', 'on_hold') and r.next_due_on is not null and r.overdue_from is not null`;

// One trigger set for all of them: each statement's transition tables are read once.
const positions = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  ${inQueue('pending', 'submitted_at', "r.status in ('pending')")(rows, sign)}
  union all
  ${inQueue('running', 'decided_at', "r.status in ('approved', 'on_hold')")(rows, sign)}
  union all
  ${overduePairs(rows, sign)}`;

const figures = [
  ...Object.values(QUEUE_POSITION_FIGURES).flatMap(({ hours, total }) => [hours, total]),
  OVERDUE_PAIRS,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  await createFiguresTable(db, 'queue_counts');
  await sql`
    create trigger queue_counts_answers_changed
    after insert or update or delete or truncate on queue_counts
    for each statement execute function hiram_notify_answers_changed()`.execute(db);
  await keepFiguresPerDay(db, 'positions', 'applications', figures, positions, 'queue_counts');
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropFiguresPerDay(db, 'positions', 'applications', figures, 'queue_counts');
  await sql`drop table queue_counts`.execute(db);
  await sql`drop function queue_counts_truncated()`.execute(db);
}
