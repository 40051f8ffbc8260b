import { type Kysely, type RawBuilder, sql } from 'kysely';
import { keepFigures, shard } from './032-dashboard-figures';

/**
 * The dashboard's portfolio figures without a pass over the whole loan book (issue #35: an index-only scan
 * of every running loan, 290,000 at 1 M applications, on every request). The principal the running loans
 * owe as of their last facts (`outstanding_principal_minor`) is kept in `dashboard_figures` as the figure
 * 'book', by statement-level triggers on `applications` like the other figures (migration 032,
 * docs/decisions/042), so every writer keeps it. What depends on the day is read from ranges: the principal
 * steps already due (few: the facts are recomputed as they come due), the loans overdue, the loans more than
 * 30 days past due. The predicate is `runningLoanWithFactsSql`'s, written as literals.
 */
const book = (rows: RawBuilder<unknown>, sign: 1 | -1) => sql`
  select 'book'::text as figure, ''::text as part, ${shard} as shard,
         ${sql.lit(sign)}::bigint as n, ${sql.lit(sign)} * r.outstanding_principal_minor as amount
  from ${rows} r
  where r.status in ('approved', 'on_hold') and r.facts_as_of is not null`;

export async function up(db: Kysely<unknown>): Promise<void> {
  // No write may slip between the backfill and the triggers (another instance on the old release).
  await sql`lock table applications in share row exclusive mode`.execute(db);
  await keepFigures(db, 'book', 'applications', book);
  await sql`create trigger applications_book_truncate after truncate on applications
    for each statement execute function dashboard_figures_truncated('book')`.execute(db);
  await sql`insert into dashboard_figures (figure, part, shard, n, amount)
    select 'book', '', 0, count(*), coalesce(sum(outstanding_principal_minor), 0) from applications
    where status in ('approved', 'on_hold') and facts_as_of is not null
    having count(*) > 0`.execute(db);
  // The day's parts, each a range of its own index.
  await sql`
    create index applications_step_due_idx on applications (principal_step_on) include (principal_step_minor)
    where status in ('approved', 'on_hold') and facts_as_of is not null`.execute(db);
  await sql`
    create index applications_overdue_from_idx on applications (overdue_from)
    where status in ('approved', 'on_hold') and facts_as_of is not null`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index applications_overdue_from_idx`.execute(db);
  await sql`drop index applications_step_due_idx`.execute(db);
  for (const event of ['insert', 'update', 'delete', 'truncate'])
    await sql`drop trigger ${sql.raw(`applications_book_${event}`)} on applications`.execute(db);
  await sql`drop function dashboard_book_applications()`.execute(db);
  await sql`delete from dashboard_figures where figure = 'book'`.execute(db);
}
