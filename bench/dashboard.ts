/**
 * Issue #35, the staff dashboard summary at 1 M applications on PostgreSQL (docs/decisions/042), on its own:
 * `nice -n 10 npx tsx bench/dashboard.ts [--rows=1000000] [--complaints=50000] [--calls=200]` starts a
 * throw-away cluster, migrates, seeds as `npm run bench` does (bench/seed.ts) plus resolved and open
 * complaints and paid payouts (bench/seed.ts's applications have neither; the median and today's payouts
 * read them), then prints `explain (analyze, buffers)` of the
 * new statement and of the statement the dashboard ran before (every figure aggregated over the whole
 * tables), checks both give the same figures, and times getDashboardSummary: one caller at a time, then 32
 * at once, beside the old statement measured in the same run, with the load average.
 */
import { loadavg } from 'node:os';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { approvedStatuses, awaitingDecisionStatuses } from '../src/domain/loan/status';
import { hashPassword } from '../src/server/auth/passwords';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import type { Database } from '../src/server/db/schema';
import type { AppDeps } from '../src/server/deps';
import { getDashboardSummary } from '../src/server/features/dashboard/get-dashboard-summary';
import { systemClock } from '../src/server/lib/clock';
import { sqlList } from '../src/server/lib/sql-lists';
import { startThrowawayPostgres } from '../src/server/test-support/postgres-cluster';
import { arg, BENCH_STAFF_PASSWORD, benchConfig, log, percentile } from './common';
import { captureDb, inline } from './plans';
import { phoneSql, seedApplications } from './seed';

const load1 = () => loadavg()[0]!.toFixed(2);
const TZ = 'Asia/Manila';

/** The dashboard statement before migration 032, verbatim: every figure aggregated over the whole tables. */
const oldStatement = sql`
  with day as (select (date_trunc('day', now() at time zone ${TZ}) at time zone ${TZ}) as start)
  select
    (select count(*) from users, day where role = 'borrower' and created_at >= day.start) as registered_today,
    (select count(*) from users where role = 'borrower') as registered_total,
    (select min(amount) from applications, day where submitted_at >= day.start) as min_loan_today,
    (select max(amount) from applications, day where submitted_at >= day.start) as max_loan_today,
    (select coalesce(sum(amount), 0) from disbursements, day
       where status = 'paid' and decided_at >= day.start) as disbursed_today,
    (select count(*) from applications where status in (${sqlList(approvedStatuses)})) as approved,
    (select count(*) from applications where status in (${sqlList(awaitingDecisionStatuses)})) as pending,
    (select count(*) from applications where status in ('rejected')) as rejected,
    a.avg_loan, a.total,
    (select count(*) from complaints where status <> 'resolved') as open_complaints,
    (select round(percentile_cont(0.5) within group (order by extract(epoch from resolved_at - created_at)))
       from complaints where status = 'resolved') as median_resolve_seconds
  from (select round(avg(amount)) as avg_loan, count(*) as total from applications) a`;

async function explain(db: Kysely<Database>, label: string, text: string) {
  await sql.raw(`explain (analyze) ${text}`).execute(db); // warm
  const { rows } = await sql.raw(`explain (analyze, buffers) ${text}`).execute(db);
  log(`\n-- ${label} (load average ${load1()})`);
  for (const r of rows as { 'QUERY PLAN': string }[]) log(`   ${r['QUERY PLAN']}`);
}

async function timed(run: () => Promise<unknown>, calls: number, concurrency: number) {
  const times: number[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < calls) {
        next += 1;
        const t0 = performance.now();
        await run();
        times.push(performance.now() - t0);
      }
    }),
  );
  times.sort((a, b) => a - b);
  return { p50: percentile(times, 50), p95: percentile(times, 95), n: times.length };
}

async function main() {
  const rows = Number(arg('rows', '1000000'));
  const complaints = Number(arg('complaints', '50000'));
  const calls = Number(arg('calls', '200'));
  const cluster = await startThrowawayPostgres(['shared_buffers=512MB', 'work_mem=16MB', 'autovacuum=off']);
  try {
    const database = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 32 });
    const db = database.db;
    try {
      await migrateToLatest(db);
      const t0 = performance.now();
      await seedApplications(db, rows, await hashPassword(BENCH_STAFF_PASSWORD), log);
      log(
        `seeded ${rows.toLocaleString('en')} applications in ${((performance.now() - t0) / 1000).toFixed(0)} s`,
      );
      // Complaints from the first borrowers, filed over the last 120 days; three in four resolved after
      // 0 to ~30 days (seconds spread so the hour buckets are uneven), one in 1,000 paid out today.
      const officer = await db
        .insertInto('users')
        .values({ username: 'benchofficer', phone: null, password_hash: '$argon2id$bench', role: 'officer' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await sql`
        insert into complaints (reference, borrower_id, category, text, status, created_at, resolved_at,
          resolved_by, resolution_note)
        select 'C-B-' || g, u.id, 'other', 'Bench', case when g % 4 = 0 then 'received' else 'resolved' end,
               now() - (g % 2880) * interval '1 hour',
               case when g % 4 <> 0 then now() - (g % 2880) * interval '1 hour'
                 + ((g * 7919) % 2600000) * interval '1 second' end,
               case when g % 4 <> 0 then ${officer.id}::uuid end, case when g % 4 <> 0 then 'Done' end
        from generate_series(1, ${complaints}::int) g
        join users u on u.phone = ${phoneSql}`.execute(db);
      // A payout for every approved loan, paid over the last ~37 days (the seed here has none).
      await sql`
        insert into disbursements (application_id, amount, bank_name, account_number, code_verified, status,
          requested_at, decided_at, reference)
        select id, amount, 'GCash', '09171234567', true, 'paid', decided_at,
               now() - (hashtext(loan_number)::bigint % 900 + 900) % 900 * interval '1 hour', 'B-' || loan_number
        from applications where status = 'approved'`.execute(db);
      await sql`checkpoint`.execute(db);
      await sql`vacuum analyze`.execute(db);
      const figures = await sql<{
        rows: number;
      }>`select count(*)::int as rows from dashboard_figures`.execute(db);
      log(`dashboard_figures holds ${figures.rows[0]!.rows} rows; load average ${load1()}`);

      const captured: CompiledQuery[] = [];
      const deps = { db, config: benchConfig(TZ), clock: systemClock } as unknown as AppDeps;
      const summary = await getDashboardSummary({ ...deps, db: captureDb(db, captured) } as AppDeps);
      const old = (await oldStatement.execute(db)).rows[0] as Record<string, unknown>;
      log(`\nnew summary: ${JSON.stringify(summary)}`);
      log(`old statement: ${JSON.stringify(old)}`);
      const same =
        summary.registeredTotal === Number(old.registered_total) &&
        summary.totalLoans === Number(old.total) &&
        summary.approvedLoans === Number(old.approved) &&
        summary.pendingLoans === Number(old.pending) &&
        summary.rejectedLoans === Number(old.rejected) &&
        summary.avgLoanMinor === Number(old.avg_loan) &&
        summary.openComplaints === Number(old.open_complaints) &&
        summary.medianResolveSeconds === Number(old.median_resolve_seconds) &&
        summary.registeredToday === Number(old.registered_today) &&
        summary.disbursedTodayMinor === Number(old.disbursed_today) &&
        summary.minLoanTodayMinor === Number(old.min_loan_today) &&
        summary.maxLoanTodayMinor === Number(old.max_loan_today);
      log(`same figures: ${same ? 'yes' : 'NO'}`);

      await explain(db, 'new dashboard statement', inline(captured[0]!));
      await explain(db, 'old dashboard statement', inline(oldStatement.compile(db)));

      const oldCalls = Math.max(3, Math.min(10, Math.round(calls / 20)));
      const oldOne = await timed(() => oldStatement.execute(db), oldCalls, 1);
      const newOne = await timed(() => getDashboardSummary(deps), calls, 1);
      const newMany = await timed(() => getDashboardSummary(deps), calls * 4, 32);
      const oldMany = await timed(() => oldStatement.execute(db), oldCalls * 4, 32);
      log(
        `\nDashboard summary at ${rows.toLocaleString('en')} applications, ${complaints.toLocaleString('en')} complaints (PostgreSQL, load average ${load1()})`,
      );
      log('| statement | callers | calls | p50 ms | p95 ms |');
      log('|---|---:|---:|---:|---:|');
      for (const [label, callers, r] of [
        ['old (whole-table aggregates)', 1, oldOne],
        ['new getDashboardSummary', 1, newOne],
        ['old (whole-table aggregates)', 32, oldMany],
        ['new getDashboardSummary', 32, newMany],
      ] as const)
        log(`| ${label} | ${callers} | ${r.n} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} |`);
    } finally {
      await database.close();
    }
  } finally {
    await cluster.stop();
  }
}

await main();
