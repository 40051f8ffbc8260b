import { type Kysely, type RawBuilder, sql } from 'kysely';
import { dropFiguresPerDay, keepFiguresPerDay, shard } from './032-dashboard-figures';
import { ANNOUNCING_TABLES as ANNOUNCING_BEFORE } from './042-borrower-names';

/**
 * The dashboard's "today" figures without a range over today's rows (issue #35, docs/decisions/068): at
 * 1 M applications the bench's day holds 17,713 sign-ups and as many submissions, and counting them, their
 * smallest and largest amount read 35 k index entries (6 ms) on every uncached summary. They are kept per
 * quarter hour (UTC, `date_bin` from 2000-01-01), in the writing transaction:
 * - sign-ups ('borrowers_quarter': users with role borrower by `created_at`) and money paid out
 *   ('paid_quarter': paid payouts by `decided_at`, with their amount) in `dashboard_figures`, sharded and
 *   summed like migration 039's days;
 * - each quarter's smallest and largest submitted amount in `application_quarters`: a minimum cannot be
 *   taken back by subtracting, so an insert widens its quarter's row (upsert, `least`/`greatest`: a
 *   writer waiting on the row merges into what the other committed), and an update that moves an amount
 *   or a submission time, or a delete, reads its quarters again from `applications_submitted_idx` (one
 *   quarter hour of entries) after locking their rows, so no concurrent insert is lost between the read
 *   and the write.
 * The day starts at midnight in the configured zone; a zone whose midnight is not on a quarter hour has its
 * first part-quarter read from the indexes (no zone in use today has one, but the configuration allows it).
 */
export const QUARTER_ORIGIN = "timestamptz '2000-01-01 00:00:00+00'";
const quarterOf = (column: string) => sql.raw(`date_bin('15 minutes', ${column}, ${QUARTER_ORIGIN})`);
/** A quarter as `dashboard_figures.part`: UTC, 'YYYY-MM-DDTHH:MI', so quarters compare as text in order. */
export const quarterPart = (quarter: RawBuilder<unknown>) =>
  sql`to_char(${quarter} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI')`;

const borrowersByQuarter = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select 'borrowers_quarter'::text as figure, ${quarterPart(quarterOf('r.created_at'))} as part,
         ${shard} as shard, ${sql.lit(sign)}::bigint as n, 0::bigint as amount
  from ${rows} r
  where r.role = 'borrower'`;

const paidByQuarter = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select 'paid_quarter'::text as figure, ${quarterPart(quarterOf('r.decided_at'))} as part,
         ${shard} as shard, ${sql.lit(sign)}::bigint as n, ${sql.lit(sign)} * r.amount as amount
  from ${rows} r
  where r.status = 'paid' and r.decided_at is not null`;

/** Tables whose changes are announced to the answer caches: the quarters too, which the dashboard reads. */
export const ANNOUNCING_TABLES = [...ANNOUNCING_BEFORE, 'application_quarters'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  await keepFiguresPerDay(db, 'quarters', 'users', ['borrowers_quarter'], borrowersByQuarter);
  await keepFiguresPerDay(db, 'quarters', 'disbursements', ['paid_quarter'], paidByQuarter);

  await sql`lock table applications in share row exclusive mode`.execute(db);
  await sql`
    create table application_quarters (
      quarter timestamptz primary key,
      low_amount bigint not null,
      high_amount bigint not null
    )`.execute(db);
  await sql`
    insert into application_quarters (quarter, low_amount, high_amount)
    select ${quarterOf('submitted_at')}, min(amount), max(amount) from applications group by 1`.execute(db);
  await sql`
    create trigger application_quarters_answers_changed
    after insert or update or delete or truncate on application_quarters
    for each statement execute function hiram_notify_answers_changed()`.execute(db);

  // Quarters whose extremes may have narrowed, read again under their rows' locks (in quarter order, as
  // every writer here locks them, so writers never deadlock on each other's quarters).
  await sql`
    create function application_quarters_reread(quarters timestamptz[]) returns void language plpgsql as $$
    begin
      insert into application_quarters (quarter, low_amount, high_amount)
      select q, 0, 0 from unnest(quarters) q order by q on conflict (quarter) do nothing;
      perform 1 from application_quarters where quarter = any (quarters) order by quarter for update;
      -- A new statement, so a new snapshot: whatever committed while this waited for the locks is read.
      update application_quarters a set low_amount = m.low, high_amount = m.high
      from (select q, min(x.amount) as low, max(x.amount) as high
            from unnest(quarters) q join applications x
              on x.submitted_at >= q and x.submitted_at < q + interval '15 minutes'
            group by q) m
      where a.quarter = m.q;
      delete from application_quarters a where a.quarter = any (quarters) and not exists (
        select 1 from applications x
        where x.submitted_at >= a.quarter and x.submitted_at < a.quarter + interval '15 minutes');
    end $$`.execute(db);
  await sql`
    create function application_quarters_inserted() returns trigger language plpgsql as $$
    begin
      insert into application_quarters as a (quarter, low_amount, high_amount)
      select ${quarterOf('submitted_at')}, min(amount), max(amount) from new_rows group by 1 order by 1
      on conflict (quarter) do update
        set low_amount = least(a.low_amount, excluded.low_amount),
            high_amount = greatest(a.high_amount, excluded.high_amount);
      return null;
    end $$`.execute(db);
  await sql`
    create function application_quarters_changed() returns trigger language plpgsql as $$
    declare
      quarters timestamptz[];
    begin
      if tg_op = 'DELETE' then
        select array_agg(distinct ${quarterOf('submitted_at')}) into quarters from old_rows;
      else
        -- Most updates (decisions, holds, a loan's facts) move neither: nothing to read again.
        select array_agg(distinct v.q) into quarters from (
          select ${quarterOf('o.submitted_at')} as q1, ${quarterOf('n.submitted_at')} as q2
          from old_rows o join new_rows n on n.id = o.id
          where o.amount is distinct from n.amount or o.submitted_at is distinct from n.submitted_at
        ) c cross join lateral (values (c.q1), (c.q2)) v (q);
      end if;
      if quarters is not null then
        perform application_quarters_reread(quarters);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger applications_quarters_insert after insert on applications
    referencing new table as new_rows for each statement execute function application_quarters_inserted()`.execute(
    db,
  );
  await sql`create trigger applications_quarters_update after update on applications
    referencing old table as old_rows new table as new_rows
    for each statement execute function application_quarters_changed()`.execute(db);
  await sql`create trigger applications_quarters_delete after delete on applications
    referencing old table as old_rows for each statement execute function application_quarters_changed()`.execute(
    db,
  );
  // Applications are never truncated (money and audit rows refer to them), but an operator's TRUNCATE must
  // not leave quarters behind.
  await sql`
    create function application_quarters_truncated() returns trigger language plpgsql as $$
    begin
      delete from application_quarters;
      return null;
    end $$`.execute(db);
  await sql`create trigger applications_quarters_truncate after truncate on applications
    for each statement execute function application_quarters_truncated()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const event of ['insert', 'update', 'delete', 'truncate'])
    await sql`drop trigger ${sql.raw(`applications_quarters_${event}`)} on applications`.execute(db);
  await sql`drop function application_quarters_truncated()`.execute(db);
  await sql`drop function application_quarters_changed()`.execute(db);
  await sql`drop function application_quarters_inserted()`.execute(db);
  await sql`drop function application_quarters_reread(timestamptz[])`.execute(db);
  await sql`drop table application_quarters`.execute(db);
  await dropFiguresPerDay(db, 'quarters', 'disbursements', ['paid_quarter']);
  await dropFiguresPerDay(db, 'quarters', 'users', ['borrowers_quarter']);
}
