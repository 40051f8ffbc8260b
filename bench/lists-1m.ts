/**
 * Issue #35, the back-office lists and searches uncached at 1 M applications on PostgreSQL, measured without
 * the whole bench: `tsx bench/lists-1m.ts seed --out=DIR` starts a throw-away cluster, migrates, seeds as
 * `npm run bench` does (`--names=unique`: every borrower's name distinct, `SeedNames`) and keeps it running
 * (its URL in DIR/url) until stopped; `tsx bench/lists-1m.ts
 * measure --url=URL` migrates it to the latest schema (new indexes), settles the visibility map, prints
 * `explain (analyze, buffers)` of each list and search on page 1 and page 2,000, then runs the real server
 * with STAFF_ANSWER_CACHE_MS=0 and loads each URL with 32 clients next to GET /api/health and the load
 * average. `tsx bench/lists-1m.ts urls --url=URL` reads each URL of the mixed staff workload (bench/mixed.ts)
 * once after another, uncached, best of two, and prints the time by kind and the slowest: where the
 * workload's time goes. `tsx bench/lists-1m.ts mixed --url=URL` runs the mixed workload itself (default
 * settings, then the answer cache off) as `npm run bench` does; its writes decide the rows set aside for
 * them, so one `mixed` per seeded cluster. `tsx bench/lists-1m.ts races --url=URL` runs the withdrawal and
 * decision races at 1 M rows (once per cluster, see `races`). On a cluster seeded with `--profile=yes`,
 * `tsx bench/lists-1m.ts top --url=URL [--reset=yes]` prints the statements that took PostgreSQL's time since
 * the last reset (pg_stat_statements), then resets when asked: reset, run `mixed`, `top` says where it went.
 * Seeding once and measuring many times is the point: seeding 1 M rows takes minutes.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { hashPassword } from '../src/server/auth/passwords';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import type { Database } from '../src/server/db/schema';
import { listDisbursements } from '../src/server/features/disbursements/list-disbursements';
import { listRepayments } from '../src/server/features/repayments/list-repayments';
import { listLoans } from '../src/server/features/servicing/list-loans';
import { listApplications } from '../src/server/features/staff-applications/list-applications';
import { startThrowawayPostgres } from '../src/server/test-support/postgres-cluster';
import { arg, BENCH_STAFF_PASSWORD, load, log, printTable, type Row } from './common';
import { benchMixed, categoryOf, type MixedFigures, mixedGoals, mixedUrls } from './mixed';
import { benchLists, capturingDeps, inline, listPages, listSizes } from './plans';
import {
  checkInvariants,
  prepareWithdrawals,
  raceFloors,
  raceVerdicts,
  runDecisions,
  runWithdrawals,
} from './races';
import { seedAll, seedBenchStaff, seededIds, seedNamesOf } from './seed';
import { login, staffSessions, startServer } from './servers';

const load1 = () => loadavg()[0]!.toFixed(2);

/**
 * As bench/run.ts: a checkpoint, then vacuum until every table's visibility map is full; `analyzed` when the
 * statistics are fresh already (`seedAll` ends with an analyze: 2 s at 1 M rows saved).
 */
async function settleVisibility(db: Kysely<Database>, analyzed = false) {
  await sql`checkpoint`.execute(db);
  await (analyzed ? sql`vacuum` : sql`vacuum analyze`).execute(db);
  for (let round = 1; round <= 3; round++) {
    const { rows } = await sql<{ name: string }>`
      select relname as name from pg_class
      where relkind = 'r' and relnamespace = 'public'::regnamespace and relpages > 0
        and relallvisible < relpages`.execute(db);
    if (rows.length === 0) return;
    for (const { name } of rows) await sql`vacuum ${sql.table(name)}`.execute(db);
  }
}

const searches = ['maria santos', 'maria', 'a', 'zzzz nobody'];

/**
 * `explain (analyze, buffers)` of every statement each list and search sends, on page 1 and page 2,000: the
 * whole plan, then one summary line (buffers touched, execution time, and whether any node is a bitmap of a
 * whole status: a Bitmap Index Scan on a status index).
 */
async function explainTimed(db: Kysely<Database>, sizes: Awaited<ReturnType<typeof listSizes>>) {
  const captured: CompiledQuery[] = [];
  const deps = capturingDeps(db, captured);
  const runs: [string, () => Promise<unknown>][] = listPages(sizes).map(([name, run]) => [
    name,
    () => run(deps),
  ]);
  for (const name of searches) {
    runs.push([
      `pending, search "${name}"`,
      () => listApplications(deps, 'pending', { page: 1, name, phone: '' }),
    ]);
    runs.push([
      `approved, search "${name}"`,
      () => listApplications(deps, 'approved', { page: 1, name, phone: '' }),
    ]);
    runs.push([`servicing, search "${name}"`, () => listLoans(deps, { page: 1, name, phone: '' })]);
    runs.push([`payouts, search "${name}"`, () => listDisbursements(deps, { page: 1, name, phone: '' })]);
    runs.push([
      `repayments, search "${name}"`,
      () => listRepayments(deps, { page: 1, name, phone: '', q: '' }),
    ]);
  }
  runs.push([
    'pending, search "maria" page 200',
    () => listApplications(deps, 'pending', { page: 200, name: 'maria', phone: '' }),
  ]);
  runs.push([
    'pending, search phone "0000123"',
    () => listApplications(deps, 'pending', { page: 1, name: '', phone: '0000123' }),
  ]);
  const summary: string[] = [];
  for (const [label, run] of runs) {
    captured.length = 0;
    await run();
    for (const [i, q] of captured.entries()) {
      // Twice: the first run warms the cache; the second is the one reported.
      await sql.raw(`explain (analyze) ${inline(q)}`).execute(db);
      const { rows } = await sql.raw(`explain (analyze, buffers) ${inline(q)}`).execute(db);
      const lines = (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']);
      log(`\n-- ${label}: statement ${i + 1}`);
      for (const line of lines) log(`   ${line}`);
      const buffers = /Buffers: shared hit=(\d+)(?: read=(\d+))?/.exec(
        lines.find((l) => l.includes('Buffers')) ?? '',
      );
      const time = /Execution Time: ([\d.]+)/.exec(
        lines.find((l) => l.includes('Execution Time')) ?? '',
      )?.[1];
      const statusBitmap = lines.some((l) => /Bitmap Index Scan on applications_status/.test(l));
      summary.push(
        `| ${label} | ${i + 1} | ${Number(buffers?.[1] ?? 0) + Number(buffers?.[2] ?? 0)} | ${time} | ${statusBitmap ? 'YES' : 'no'} |`,
      );
    }
  }
  log(`\nEXPLAIN summary (load average ${load1()})`);
  log('| statement | # | buffers | execution ms | bitmap of a status |');
  log('|---|---:|---:|---:|---|');
  for (const line of summary) log(line);
}

async function seed() {
  const rows = Number(arg('rows', '1000000'));
  const out = arg('out', '/tmp');
  // `--profile`: the cluster keeps statement statistics (pg_stat_statements) for `top`.
  const profile = arg('profile', 'no') === 'yes';
  const cluster = await startThrowawayPostgres([
    'shared_buffers=512MB',
    'work_mem=16MB',
    'autovacuum=off',
    ...(profile ? ['shared_preload_libraries=pg_stat_statements', 'pg_stat_statements.max=2000'] : []),
  ]);
  const database = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 5 });
  if (profile) await sql`create extension if not exists pg_stat_statements`.execute(database.db);
  const passwordHash = await hashPassword(BENCH_STAFF_PASSWORD);
  const t0 = performance.now();
  await migrateToLatest(database.db);
  // As `npm run bench` seeds: one load with the indexes and foreign keys built once afterwards.
  const loaded = await seedAll(database.db, rows, passwordHash, log, seedNamesOf(arg('names', 'repeated')));
  log(`  loaded in ${loaded.seconds.toFixed(0)} s`);
  await seedBenchStaff(database.db, passwordHash);
  await settleVisibility(database.db, true);
  await database.close();
  log(`seeded ${rows} in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, 'url'), cluster.url);
  log(`cluster at ${cluster.url}; stop with SIGTERM`);
  // A timer keeps the process (and so the cluster, which dies with it) alive until a signal.
  const alive = setInterval(() => {}, 60_000);
  await new Promise<void>((resolve) => {
    process.once('SIGTERM', resolve);
    process.once('SIGINT', resolve);
  });
  clearInterval(alive);
  await cluster.stop();
}

async function measure() {
  const url = arg('url', '');
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
  await migrateToLatest(database.db);
  await settleVisibility(database.db);
  const sizes = await listSizes(database.db);
  log(`list sizes: ${JSON.stringify(sizes)}; load average ${load1()}`);
  if (arg('explain', 'yes') === 'yes') await explainTimed(database.db, sizes);
  await database.close();
  if (arg('load', 'yes') !== 'yes') return;

  const server = await uncachedServer(url);
  try {
    const admin = await login(server.url, 'benchadmin', BENCH_STAFF_PASSWORD);
    const headers = { cookie: admin.cookie };
    const only = arg('only', '');
    const table: Row[] = [];
    const run = async (name: string, path: string, withHeaders = true) => {
      if (only && !name.includes(only) && name !== 'GET /api/health') return;
      const row = await load(name, server.url, withHeaders ? { path, headers } : { path });
      table.push({ ...row, scenario: `${row.scenario} (load ${load1()})` });
    };
    await run('GET /api/health', '/api/health', false);
    for (const list of benchLists(sizes)) {
      await run(`${list.name}, page 1`, list.path);
      await run(`${list.name}, page ${list.deepPage}`, `${list.path}?page=${list.deepPage}`);
    }
    for (const [queue, base] of [
      ['pending', '/api/staff/applications/pending'],
      ['approved', '/api/staff/applications/approved'],
      ['servicing', '/api/staff/loans'],
    ] as const) {
      for (const name of searches) {
        await run(`${queue}, search "${name}", page 1`, `${base}?name=${encodeURIComponent(name)}`);
      }
      await run(`${queue}, search "maria", page 200`, `${base}?name=maria&page=200`);
    }
    await run('dashboard summary', '/api/staff/dashboard');
    await run('dashboard portfolio', '/api/staff/dashboard/portfolio');
    await run('GET /api/health', '/api/health', false);
    printTable(`Lists uncached (STAFF_ANSWER_CACHE_MS=0), 32 clients, load average now ${load1()}`, table);
  } finally {
    await server.stop();
  }
}

/** The built server on the cluster at `url`, every back-office answer read from the database. */
function uncachedServer(url: string) {
  return startServer({ DATABASE_URL: url, DATABASE_POOL_SIZE: '20', STAFF_ANSWER_CACHE_MS: '0' });
}

/** The cluster at `url` migrated to the latest schema, and its lists' sizes. */
async function migratedSizes(url: string) {
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
  try {
    await migrateToLatest(database.db);
    return await listSizes(database.db);
  } finally {
    await database.close();
  }
}

/** Each mixed-workload URL once after another, uncached: the time each costs without a queue in front. */
async function eachUrl() {
  const url = arg('url', '');
  const sizes = await migratedSizes(url);
  const server = await uncachedServer(url);
  try {
    const admin = await login(server.url, 'benchadmin', BENCH_STAFF_PASSWORD);
    const times: { ms: number; status: number; path: string }[] = [];
    for (const path of mixedUrls(1_000_000, sizes)) {
      let ms = Number.POSITIVE_INFINITY;
      let status = 0;
      for (let i = 0; i < 2; i++) {
        const t0 = performance.now();
        const response = await fetch(server.url + path, { headers: { cookie: admin.cookie } });
        await response.arrayBuffer();
        status = response.status;
        ms = Math.min(ms, performance.now() - t0);
      }
      times.push({ ms, status, path });
    }
    const sum = (rows: typeof times) => rows.reduce((total, t) => total + t.ms, 0);
    log(
      `${times.length} URLs, best of 2 each: sum ${sum(times).toFixed(0)} ms, mean ${(sum(times) / times.length).toFixed(1)} ms; load ${load1()}`,
    );
    const kinds = new Map<string, typeof times>();
    for (const t of times) kinds.set(categoryOf(t.path), [...(kinds.get(categoryOf(t.path)) ?? []), t]);
    for (const [kind, rows] of kinds) {
      log(
        `  ${kind}: ${rows.length} URLs, ${sum(rows).toFixed(0)} ms in all, mean ${(sum(rows) / rows.length).toFixed(1)} ms`,
      );
    }
    for (const t of times.sort((a, b) => b.ms - a.ms).slice(0, Number(arg('slowest', '40')))) {
      log(`${t.ms.toFixed(1).padStart(8)} ms ${t.status} ${t.path}`);
    }
  } finally {
    await server.stop();
  }
}

/** The mixed staff workload on a seeded cluster: default settings, then the answer cache off. */
async function mixed() {
  const url = arg('url', '');
  const sizes = await migratedSizes(url);
  const urls = mixedUrls(1_000_000, sizes);
  const figures: MixedFigures[] = [];
  const settings: Record<string, string>[] = [{}, { STAFF_ANSWER_CACHE_MS: '0' }];
  for (const [i, env] of settings.entries()) {
    const server = await startServer({ DATABASE_URL: url, ...env });
    try {
      const staff = await staffSessions(server.url);
      const label = i === 0 ? 'default settings' : 'STAFF_ANSWER_CACHE_MS=0';
      // `--first-run=2` on a cluster already measured once: the writes take rows no earlier run took.
      const run = Number(arg('first-run', '0')) + i;
      const f = await benchMixed(
        label,
        server.url,
        staff,
        urls,
        1_000_000,
        run,
        Number(arg('duration', '30')),
      );
      printTable(`mixed staff workload, ${f.label}`, [f.health, f.all, f.writes]);
      figures.push(f);
    } finally {
      await server.stop();
    }
  }
  for (const line of mixedGoals(figures[0]!, figures[1]!)) {
    log(`${line.pass ? 'pass' : 'FAIL'} ${line.goal}: ${line.figure}`);
  }
}

/**
 * Issue #35's races at 1 M rows on a seeded cluster, as `npm run bench` runs them: 200 withdrawals at once on
 * one loan, 200 decisions at once on one pending application (`--decide=G`, the seeded row number, 5 unless
 * given: a decided application cannot be raced again), next to their floors. Their writes use up the rows,
 * so one `races` per seeded cluster unless another G is given.
 */
async function races() {
  const url = arg('url', '');
  await migratedSizes(url); // migrated to the latest schema, as the other commands
  const rows = Number(arg('rows', '1000000'));
  const database = await openDatabase({ kind: 'postgres', url, poolSize: 5 });
  const plan = await prepareWithdrawals(database.db, rows);
  const server = await startServer({ DATABASE_URL: url, DATABASE_POOL_SIZE: '20' });
  try {
    const officer = await login(server.url, 'benchofficer', BENCH_STAFF_PASSWORD);
    const cookieName = officer.cookie.split('=')[0]!;
    const floors = await raceFloors(server.url, officer);
    const decisions = await runDecisions(
      server.url,
      officer,
      seededIds.application(Number(arg('decide', '5'))),
    );
    const withdrawals = await runWithdrawals(server.url, cookieName, plan);
    printTable('races at 1 M rows', [...floors, decisions.row, ...withdrawals.results]);
    const one = await checkInvariants(database.db, [plan.single.loanId], withdrawals.singleCreated);
    await checkInvariants(
      database.db,
      plan.mixed.map((b) => b.loanId),
      withdrawals.mixedCreated,
    );
    for (const { row, pass, figure } of raceVerdicts(decisions, withdrawals, one, floors)) {
      log(`${pass ? 'pass' : 'FAIL'} ${row.scenario} at 1 M rows: p99 ≤ 150 ms, one winner: ${figure}`);
    }
  } finally {
    await server.stop();
    await database.close();
  }
}

/** PostgreSQL's time by statement since the last reset (a cluster seeded with `--profile=yes`). */
async function top() {
  const database = await openDatabase({ kind: 'postgres', url: arg('url', ''), poolSize: 1 });
  try {
    const { rows } = await sql<{ total: number; calls: number; mean: number; rows: number; query: string }>`
      select total_exec_time::float8 as total, calls::float8 as calls, mean_exec_time::float8 as mean,
             rows::float8 as rows, query
      from pg_stat_statements where query not like '%pg_stat_statements%'
      order by total_exec_time desc limit ${Number(arg('limit', '25'))}`.execute(database.db);
    const all = rows.reduce((sum, r) => sum + r.total, 0);
    log(`top statements by PostgreSQL time (${all.toFixed(0)} ms among these); load ${load1()}`);
    for (const r of rows) {
      log(
        `${((100 * r.total) / all).toFixed(1).padStart(5)} % ${r.total.toFixed(0).padStart(8)} ms ${String(r.calls).padStart(7)} calls ${r.mean.toFixed(2).padStart(7)} ms/call  ${r.query.replace(/\s+/g, ' ').slice(0, Number(arg('width', '400')))}`,
      );
    }
    if (arg('reset', 'no') === 'yes') await sql`select pg_stat_statements_reset()`.execute(database.db);
  } finally {
    await database.close();
  }
}

const command = process.argv[2];
if (command === 'seed') await seed();
else if (command === 'urls') await eachUrl();
else if (command === 'mixed') await mixed();
else if (command === 'races') await races();
else if (command === 'top') await top();
else await measure();
process.exit(0);
