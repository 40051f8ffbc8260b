import { type Kysely, type RawBuilder, sql } from 'kysely';
import { keepFigures, shard } from './032-dashboard-figures';

/**
 * The money collected in a month, kept by the database (issue #35): the portfolio summed every repayment
 * of the month and tested each one for a reversal on every request (198,000 repayments in the bench's month
 * at 1 M applications, ~0.2 s). `dashboard_figures` keeps 'collected' per calendar month of `received_on`
 * (a date, so no time zone is involved): a repayment adds its amount, its reversal takes it away again. The
 * paid-out fees of a month are read from the paid payouts' index, which now includes the fee (the month in
 * the lender's time zone is a range of `decided_at`; the database does not know that zone).
 */
const month = (day: RawBuilder<unknown>) => sql`to_char(${day}, 'YYYY-MM')`;

/** A repayment counts while it has no reversal. */
const repaid = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select 'collected'::text as figure, ${month(sql.raw('r.received_on'))} as part, ${shard} as shard,
         ${sql.lit(sign)}::bigint as n, ${sql.lit(sign)} * r.amount as amount
  from ${rows} r
  where not exists (select 1 from repayment_reversals v where v.repayment_id = r.id)`;

/** A reversal takes its repayment back out of the repayment's month. */
const reversed = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select 'collected'::text as figure, ${month(sql.raw('p.received_on'))} as part, ${shard} as shard,
         ${sql.lit(-sign)}::bigint as n, ${sql.lit(-sign)} * p.amount as amount
  from ${rows} v join repayments p on p.id = v.repayment_id`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // No write may slip between the backfill and the triggers (another instance on the old release).
  await sql`lock table repayments, repayment_reversals in share row exclusive mode`.execute(db);
  await keepFigures(db, 'collected', 'repayments', repaid);
  await keepFigures(db, 'collected', 'repayment_reversals', reversed);
  await sql`create trigger repayments_collected_truncate after truncate on repayments
    for each statement execute function dashboard_figures_truncated('collected')`.execute(db);
  await sql`insert into dashboard_figures (figure, part, shard, n, amount)
    select 'collected', ${month(sql.raw('r.received_on'))}, 0, count(*), sum(r.amount) from repayments r
    where not exists (select 1 from repayment_reversals v where v.repayment_id = r.id)
    group by 2`.execute(db);
  await sql`drop index disbursements_decided_idx`.execute(db);
  await sql`
    create index disbursements_decided_idx on disbursements (decided_at) include (amount, fee_minor)
    where status = 'paid'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index disbursements_decided_idx`.execute(db);
  await sql`
    create index disbursements_decided_idx on disbursements (decided_at) include (amount)
    where status = 'paid'`.execute(db);
  await sql`drop trigger repayments_collected_truncate on repayments`.execute(db);
  for (const table of ['repayments', 'repayment_reversals']) {
    for (const event of ['insert', 'update', 'delete'])
      await sql`drop trigger ${sql.raw(`${table}_collected_${event}`)} on ${sql.raw(table)}`.execute(db);
    await sql`drop function ${sql.raw(`dashboard_collected_${table}`)}()`.execute(db);
  }
  await sql`delete from dashboard_figures where figure = 'collected'`.execute(db);
}
