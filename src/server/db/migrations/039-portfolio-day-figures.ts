import { type Kysely, type RawBuilder, sql } from 'kysely';
import { dropFiguresPerDay, keepFiguresPerDay, shard } from './032-dashboard-figures';

/**
 * The portfolio's overdue count and PAR30 without a range over the loan book (issue #35): at 1 M
 * applications the overdue count read 48,646 index entries and PAR's sum 28,102 on every request (8.7 ms a
 * call; p95 172 ms with 32 staff asking). Running loans with facts are kept per day in `dashboard_figures`:
 * 'overdue_from' (part: the day the loan becomes overdue, by its own grace days; n: loans) and 'next_due'
 * (part: its next due date; n: loans; amount: the principal it owes as of its facts). The dashboard sums the
 * days up to today, or before today − 30 for PAR: one row per day and writing backend, a day no loan is on
 * any more is deleted. The predicate is `runningLoanWithFactsSql`'s, written as literals; a day is written
 * 'YYYY-MM-DD', so days compare as text in date order.
 */
const day = (column: string) => sql`to_char(${sql.ref(`r.${column}`)}, 'YYYY-MM-DD')`;

const running = sql`r.status in ('approved', 'on_hold') and r.facts_as_of is not null`;

const byDay = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select 'overdue_from'::text as figure, ${day('overdue_from')} as part, ${shard} as shard,
         ${sql.lit(sign)}::bigint as n, 0::bigint as amount
  from ${rows} r
  where ${running} and r.overdue_from is not null
  union all
  select 'next_due'::text, ${day('next_due_on')}, ${shard},
         ${sql.lit(sign)}::bigint, ${sql.lit(sign)} * r.outstanding_principal_minor
  from ${rows} r
  where ${running} and r.next_due_on is not null`;

const figures = ['overdue_from', 'next_due'];

export async function up(db: Kysely<unknown>): Promise<void> {
  await keepFiguresPerDay(db, 'days', 'applications', figures, byDay);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropFiguresPerDay(db, 'days', 'applications', figures);
}
