import { type Kysely, type RawBuilder, sql } from 'kysely';
import { dropFiguresPerDay, keepFiguresPerDay, shard } from './032-dashboard-figures';

/**
 * The fees of the month's payouts without a range over every payout of the month (issue #35: 25,225 index
 * entries at 1 M applications, 2.8 ms of each portfolio request). The fees of paid payouts are kept per UTC
 * day of `decided_at` in `dashboard_figures` as 'paid_fees'. The month is the lender's, in its time zone,
 * which the database does not know: the dashboard sums the UTC days wholly inside the month from here and
 * reads the two part-days at its ends from the paid payouts' index (migration 038), for any zone offset.
 */
const utcDay = sql`to_char(r.decided_at at time zone 'UTC', 'YYYY-MM-DD')`;

const paidFees = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select 'paid_fees'::text as figure, ${utcDay} as part, ${shard} as shard,
         ${sql.lit(sign)}::bigint as n, ${sql.lit(sign)} * r.fee_minor as amount
  from ${rows} r
  where r.status = 'paid' and r.decided_at is not null`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await keepFiguresPerDay(db, 'paid_fees', 'disbursements', ['paid_fees'], paidFees);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await dropFiguresPerDay(db, 'paid_fees', 'disbursements', ['paid_fees']);
}
