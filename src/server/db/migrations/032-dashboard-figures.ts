import { type Kysely, type RawBuilder, sql } from 'kysely';

/**
 * The staff dashboard's whole-table figures, kept by the database itself (issue #35; docs/decisions/042).
 * Counting a million applications on every request took 1.4–1.9 s; the figures now live in
 * `dashboard_figures` and statement-level triggers with transition tables add each statement's net change,
 * so every writer (use cases, jobs, another instance, operator SQL, a set-based seed) keeps them, and a bulk
 * insert of a million rows costs one grouped query, not a million trigger calls.
 *
 * Rows are keyed by (figure, part, shard). Counters that every write moves (applications per status with
 * their amount sum, borrowers, open complaints) are spread over 16 shards chosen by the writing backend, so
 * concurrent writers rarely wait on one row; the reader sums the shards. The resolve-time histogram (hour
 * buckets of resolved complaints) lives in shard 0: only a resolution moves it. The dashboard finds the
 * median's bucket from the histogram and reads the exact values in that bucket from an expression index.
 */
const SHARDS = 16;

interface Source {
  table: string;
  /** Each changed row's contributions (figure, part, shard, n, amount) read from the row source `r`. */
  contributions: (rows: RawBuilder<unknown>, sign: 1 | -1) => RawBuilder<unknown>;
}

/** The shard a writing backend adds to (exported for later figures: migration 037). */
export const shard = sql.raw(`(pg_backend_pid() % ${SHARDS})::smallint`);
/** Seconds from filing to resolution; the same expression as the index the median reads. */
const resolveSeconds = sql.raw('extract(epoch from r.resolved_at - r.created_at)');

const sources: Source[] = [
  {
    table: 'applications',
    contributions: (rows, sign) => sql`
      select 'applications'::text as figure, r.status as part, ${shard} as shard,
             ${sql.lit(sign)}::bigint as n, ${sql.lit(sign)} * r.amount as amount
      from ${rows} r`,
  },
  {
    table: 'users',
    contributions: (rows, sign) => sql`
      select 'borrowers'::text, ''::text, ${shard}, ${sql.lit(sign)}::bigint, 0::bigint
      from ${rows} r where r.role = 'borrower'`,
  },
  {
    table: 'complaints',
    contributions: (rows, sign) => sql`
      select 'open_complaints'::text, ''::text, ${shard}, ${sql.lit(sign)}::bigint, 0::bigint
      from ${rows} r where r.status <> 'resolved'
      union all
      select 'resolve_hours', floor(${resolveSeconds} / 3600)::bigint::text, 0::smallint,
             ${sql.lit(sign)}::bigint, 0::bigint
      from ${rows} r where r.status = 'resolved'`,
  },
];

/**
 * A table of figures: `dashboard_figures`, or one of its shape (figure, part, shard, n, amount) kept the same
 * way for other readers (migration 046's `queue_counts`).
 */
type FiguresTable = 'dashboard_figures' | 'queue_counts';

/**
 * A table of figures and its `<table>_truncated(figures…)` trigger function, which deletes the figures named:
 * TRUNCATE fires no row or statement-level insert/delete trigger, so a truncated table's figures start again
 * from zero (`keepFiguresPerDay` attaches it).
 */
export async function createFiguresTable(db: Kysely<unknown>, table: FiguresTable) {
  await sql`
    create table ${sql.raw(table)} (
      figure text not null,
      part text not null default '',
      shard smallint not null default 0,
      n bigint not null default 0,
      amount bigint not null default 0,
      primary key (figure, part, shard)
    )`.execute(db);
  await sql`
    create function ${sql.raw(`${table}_truncated`)}() returns trigger language plpgsql as $fn$
    begin
      delete from ${sql.raw(table)} where figure = any (tg_argv);
      return null;
    end
    $fn$`.execute(db);
}

/** Adds the net change per (figure, part, shard); rows locked in key order so writers never deadlock here. */
const addChange = (change: RawBuilder<unknown>, into: FiguresTable = 'dashboard_figures') => sql`
  insert into ${sql.raw(into)} as f (figure, part, shard, n, amount)
  select figure, part, shard, sum(n), sum(amount) from (${change}) c (figure, part, shard, n, amount)
  group by figure, part, shard
  having sum(n) <> 0 or sum(amount) <> 0
  order by figure, part, shard
  on conflict (figure, part, shard) do update set n = f.n + excluded.n, amount = f.amount + excluded.amount`;

/**
 * Deletes the rows of this change's keys that came back to zero (figures per day, migration 039: a day no
 * loan is on any more must not stay a row every later read sums). Only the writing backend's own rows,
 * which the upsert before it has just locked, so it waits on no one.
 */
const dropZeros = (change: RawBuilder<unknown>, into: FiguresTable) => sql`
  delete from ${sql.raw(into)} f
  using (select distinct figure, part, shard from (${change}) c (figure, part, shard, n, amount)) k
  where f.figure = k.figure and f.part = k.part and f.shard = k.shard and f.n = 0 and f.amount = 0`;

const newRows = sql.raw('new_rows');
const oldRows = sql.raw('old_rows');

/**
 * The statement-level triggers that keep a set of figures for `table`: the function
 * `dashboard_<set>_<table>` adds each statement's net change from its transition tables, fired after insert,
 * update and delete (`<table>_<set>_insert` …). Later figures use it too (migrations 037–040); figures per
 * day drop their zero rows (`dropZeros`).
 */
export async function keepFigures(
  db: Kysely<unknown>,
  set: string,
  table: string,
  contributions: (rows: RawBuilder<unknown>, sign: 1 | -1) => RawBuilder<unknown>,
  options: { dropZeros?: boolean; into?: FiguresTable } = {},
) {
  const fn = sql.raw(`dashboard_${set}_${table}`);
  const into = options.into ?? 'dashboard_figures';
  const keep = (change: RawBuilder<unknown>) =>
    options.dropZeros ? sql`${addChange(change, into)}; ${dropZeros(change, into)}` : addChange(change, into);
  await sql`
    create function ${fn}() returns trigger language plpgsql as $fn$
    begin
      if tg_op = 'INSERT' then
        ${keep(contributions(newRows, 1))};
      elsif tg_op = 'DELETE' then
        ${keep(contributions(oldRows, -1))};
      else
        ${keep(sql`${contributions(newRows, 1)} union all ${contributions(oldRows, -1)}`)};
      end if;
      return null;
    end
    $fn$`.execute(db);
  const t = sql.raw(table);
  await sql`create trigger ${sql.raw(`${table}_${set}_insert`)} after insert on ${t}
    referencing new table as new_rows for each statement execute function ${fn}()`.execute(db);
  await sql`create trigger ${sql.raw(`${table}_${set}_update`)} after update on ${t}
    referencing old table as old_rows new table as new_rows for each statement execute function ${fn}()`.execute(
    db,
  );
  await sql`create trigger ${sql.raw(`${table}_${set}_delete`)} after delete on ${t}
    referencing old table as old_rows for each statement execute function ${fn}()`.execute(db);
}

/**
 * A later set of figures per day (migrations 039, 040), from now on: `table` locked so no write of an older
 * instance slips between the backfill and the triggers, the triggers (zero rows dropped), TRUNCATE starting
 * `figures` from zero, and the backfill of the rows already there.
 */
export async function keepFiguresPerDay(
  db: Kysely<unknown>,
  set: string,
  table: string,
  figures: string[],
  contributions: (rows: RawBuilder<unknown>, sign: 1 | -1) => RawBuilder<unknown>,
  into: FiguresTable = 'dashboard_figures',
) {
  const t = sql.raw(table);
  await sql`lock table ${t} in share row exclusive mode`.execute(db);
  await keepFigures(db, set, table, contributions, { dropZeros: true, into });
  // `<into>_truncated(figures)` deletes the figures from `into`.
  await sql`create trigger ${sql.raw(`${table}_${set}_truncate`)} after truncate on ${t}
    for each statement execute function ${sql.raw(`${into}_truncated`)}(${sql.join(figures.map((f) => sql.lit(f)))})`.execute(
    db,
  );
  await sql`insert into ${sql.raw(into)} (figure, part, shard, n, amount)
    select figure, part, 0, sum(n), sum(amount)
    from (${contributions(t, 1)}) c (figure, part, shard, n, amount)
    group by figure, part`.execute(db);
}

/** Undoes `keepFiguresPerDay`. */
export async function dropFiguresPerDay(
  db: Kysely<unknown>,
  set: string,
  table: string,
  figures: string[],
  into: FiguresTable = 'dashboard_figures',
) {
  for (const event of ['insert', 'update', 'delete', 'truncate'])
    await sql`drop trigger ${sql.raw(`${table}_${set}_${event}`)} on ${sql.raw(table)}`.execute(db);
  await sql`drop function ${sql.raw(`dashboard_${set}_${table}`)}()`.execute(db);
  await sql`delete from ${sql.raw(into)} where figure in (${sql.join(figures)})`.execute(db);
}

export async function up(db: Kysely<unknown>): Promise<void> {
  // No write may slip between the backfill and the triggers (another instance on the old release).
  await sql`lock table users, applications, complaints in share row exclusive mode`.execute(db);
  await createFiguresTable(db, 'dashboard_figures');
  for (const { table, contributions } of sources) {
    await keepFigures(db, 'figures', table, contributions);
    const t = sql.raw(table);
    await sql`insert into dashboard_figures (figure, part, shard, n, amount)
      select figure, part, 0, sum(n), sum(amount) from (${contributions(t, 1)}) c (figure, part, shard, n, amount)
      group by figure, part`.execute(db);
  }
  await sql`create trigger applications_figures_truncate after truncate on applications
    for each statement execute function dashboard_figures_truncated('applications')`.execute(db);
  await sql`create trigger users_figures_truncate after truncate on users
    for each statement execute function dashboard_figures_truncated('borrowers')`.execute(db);
  await sql`create trigger complaints_figures_truncate after truncate on complaints
    for each statement execute function dashboard_figures_truncated('open_complaints', 'resolve_hours')`.execute(
    db,
  );
  // The median's bucket is read in index order (the exact values around the middle of one hour bucket).
  await sql`
    create index complaints_resolve_seconds_idx on complaints ((extract(epoch from resolved_at - created_at)))
    where status = 'resolved'`.execute(db);
  // Today's smallest and largest loan and today's payouts from the indexes alone: today's rows lie on any
  // heap page. Same names and keys as before (migration 003), with the amount included.
  await sql`drop index applications_submitted_idx`.execute(db);
  await sql`create index applications_submitted_idx on applications (submitted_at) include (amount)`.execute(
    db,
  );
  await sql`drop index disbursements_decided_idx`.execute(db);
  await sql`
    create index disbursements_decided_idx on disbursements (decided_at) include (amount)
    where status = 'paid'`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop index disbursements_decided_idx`.execute(db);
  await sql`create index disbursements_decided_idx on disbursements (decided_at) where status = 'paid'`.execute(
    db,
  );
  await sql`drop index applications_submitted_idx`.execute(db);
  await sql`create index applications_submitted_idx on applications (submitted_at)`.execute(db);
  await sql`drop index complaints_resolve_seconds_idx`.execute(db);
  for (const table of ['applications', 'users', 'complaints']) {
    for (const event of ['insert', 'update', 'delete', 'truncate'])
      await sql`drop trigger ${sql.raw(`${table}_figures_${event}`)} on ${sql.raw(table)}`.execute(db);
    await sql`drop function ${sql.raw(`dashboard_figures_${table}`)}()`.execute(db);
  }
  await sql`drop function dashboard_figures_truncated()`.execute(db);
  await sql`drop table dashboard_figures`.execute(db);
}
