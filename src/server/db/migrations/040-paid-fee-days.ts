import { type Kysely, type RawBuilder, sql } from 'kysely';
import { keepFigures, shard } from './032-dashboard-figures';

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
  // No write may slip between the backfill and the triggers (another instance on the old release).
  await sql`lock table disbursements in share row exclusive mode`.execute(db);
  await keepFigures(db, 'paid_fees', 'disbursements', paidFees, { dropZeros: true });
  await sql`create trigger disbursements_paid_fees_truncate after truncate on disbursements
    for each statement execute function dashboard_figures_truncated('paid_fees')`.execute(db);
  await sql`insert into dashboard_figures (figure, part, shard, n, amount)
    select figure, part, 0, sum(n), sum(amount)
    from (${paidFees(sql.raw('disbursements'), 1)}) c (figure, part, shard, n, amount)
    group by figure, part`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'update', 'delete', 'truncate'])
    await sql`drop trigger ${sql.raw(`disbursements_paid_fees_${event}`)} on disbursements`.execute(db);
  await sql`drop function dashboard_paid_fees_disbursements()`.execute(db);
  await sql`delete from dashboard_figures where figure = 'paid_fees'`.execute(db);
}
