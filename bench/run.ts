/**
 * `npm run bench`: seeds PostgreSQL (1,000,000 applications by default) and PGlite (100,000), starts the
 * real server on each, and measures with autocannon the back-office hot paths next to a bare
 * GET /api/health on the same run (so the ratios compare across machines), plus the withdrawal races, the
 * overdue queue and the dashboard's portfolio figures over the repayment-era seed (seedRepayments). Prints
 * EXPLAIN plans to show paging, search and the loan book stay index-backed. On PostgreSQL it also runs the
 * list workload on one instance and on two (bench/two-instances.ts); then the built app's cold start
 * (bench/cold-start.ts), the first load's bundle sizes per route and bytes on the wire
 * (bench/first-load.ts) and the Lighthouse scores (bench/lighthouse.ts). Options:
 *   --pg-rows=N --pglite-rows=N --duration=S --connections=N
 *   --only=postgres|pglite|replay|cold-start|first-load|lighthouse (or several, comma-separated)
 *   --scenarios=lists,profile,two-instances (a comma-separated subset; all by default). /api/health and the
 *   races always run (their invariants are the bench's own check): --scenarios=races runs only those.
 *   --answer-cache-ms=N: the server's STAFF_ANSWER_CACHE_MS (docs/decisions/030); 0 reads every list answer.
 * Every list is measured on page 1 and on a deep page and printed next to the goals of issue #12 (≥ 0.25× the
 * req/s of /api/health, p95 ≤ 50 ms), the staff profile next to a bare Fastify + pg server answering the same
 * single-row SELECT (≥ 0.5×), the two races next to p99 ≤ 200 ms, and PGlite next to PostgreSQL (≥ 0.5×).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type autocannon from 'autocannon';
import { type Kysely, sql } from 'kysely';
import { hashPassword } from '../src/server/auth/passwords';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import type { Database } from '../src/server/db/schema';
import { startThrowawayPostgres } from '../src/server/test-support/postgres-cluster';
import { benchColdStart } from './cold-start';
import { answerCacheNote, arg, load, log, options, printTable, type Row, verdict } from './common';
import { benchFirstLoad } from './first-load';
import { benchLighthouse } from './lighthouse';
import { benchLists, checkSeededFacts, explainPlans, listSizes, timePortfolio } from './plans';
import { checkInvariants, prepareWithdrawals, raceFloors, runDecisions, runWithdrawals } from './races';
import { benchReplay } from './replay';
import { seedApplications, seedBackOffice, seededIds, seedRepayments } from './seed';
import { login, runBareServer, startBareServer, startServer } from './servers';
import { benchTwoInstances } from './two-instances';

/** The list rows of each backend's run, for the PGlite-to-PostgreSQL comparison at the end. */
const listRuns = new Map<'postgres' | 'pglite', { rows: number; table: Row[] }>();

/**
 * The steady state the list plans assume: every page all-visible, so index-only scans read no table rows.
 * The throw-away cluster commits asynchronously (synchronous_commit=off), and VACUUM marks a page
 * all-visible only once its rows' commits are on disk: run right after the seed, it marked none, and every
 * earlier bench read table rows in its index-only scans (21,000 for the audit log's page 2,000). A
 * CHECKPOINT flushes the WAL first.
 */
async function settleVisibility(db: Kysely<Database>, kind: 'postgres' | 'pglite') {
  if (kind === 'postgres') await sql`checkpoint`.execute(db);
  await sql`vacuum analyze`.execute(db);
  // Even then, on PostgreSQL one VACUUM after the CHECKPOINT has left the audit log with no all-visible page
  // at 100 k rows and more (every audit list read up to 21,000 table rows; session 13), and a second one set
  // them all: vacuum each table again until the visibility map covers it, and say so if it still does not.
  for (let round = 1; ; round++) {
    const { rows } = await sql<{ name: string; pages: number; visible: number }>`
      select relname as name, relpages as pages, relallvisible as visible from pg_class
      where relkind = 'r' and relnamespace = 'public'::regnamespace and relpages > 0
        and relallvisible < relpages`.execute(db);
    if (rows.length === 0) return;
    if (round > 3) {
      log(
        `   not all-visible after ${round} vacuums: ${rows.map((r) => `${r.name} ${r.visible}/${r.pages} pages`).join(', ')}`,
      );
      return;
    }
    for (const { name } of rows) await sql`vacuum ${sql.table(name)}`.execute(db);
  }
}

async function benchBackend(kind: 'postgres' | 'pglite', rows: number) {
  log(`\n=== ${kind}: seeding ${rows.toLocaleString('en')} applications`);
  const passwordHash = await hashPassword('bench officer pass');
  const t0 = performance.now();
  const cluster =
    kind === 'postgres'
      ? // No autovacuum during the measurements: the bench vacuums once after seeding (`settleVisibility`).
        await startThrowawayPostgres(['shared_buffers=512MB', 'work_mem=16MB', 'autovacuum=off'])
      : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-bench-'));
  const target = cluster
    ? ({ kind: 'postgres', url: cluster.url, poolSize: 5 } as const)
    : ({ kind: 'pglite', dataDir } as const);
  let bare: Awaited<ReturnType<typeof startServer>> | null = null;
  try {
    let database = await openDatabase(target);
    await migrateToLatest(database.db);
    await seedApplications(database.db, rows, passwordHash, log);
    await seedRepayments(database.db, rows, log);
    await seedBackOffice(database.db, rows, log);
    await database.db
      .insertInto('users')
      .values([
        { username: 'benchofficer', phone: null, password_hash: passwordHash, role: 'officer' },
        { username: 'benchadmin', phone: null, password_hash: passwordHash, role: 'admin' },
      ])
      .execute();
    await settleVisibility(database.db, kind);
    log(`   seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    const sizes = await listSizes(database.db);
    log(`   list sizes: ${JSON.stringify(sizes)}`);
    await checkSeededFacts(database.db, rows, 'Asia/Manila');
    await explainPlans(database.db, 'Asia/Manila', sizes);
    await timePortfolio(database.db, 'Asia/Manila');
    const plan = await prepareWithdrawals(database.db, rows);
    // PGlite allows one process on its files: the bench lets go while the server runs.
    if (!cluster) await database.close();

    const server = await startServer({
      ...(cluster ? { DATABASE_URL: cluster.url, DATABASE_POOL_SIZE: '20' } : { DATA_DIR: dataDir }),
      ...(options.answerCacheMs ? { STAFF_ANSWER_CACHE_MS: options.answerCacheMs } : {}),
    });
    const admin = await login(server.url, 'benchadmin', 'bench officer pass');
    const officer = await login(server.url, 'benchofficer', 'bench officer pass');
    const cookieName = admin.cookie.split('=')[0]!;
    const headers = { cookie: admin.cookie };
    const profileIds = Array.from({ length: 1000 }, (_, i) => seededIds.application(1 + ((i * 7919) % rows)));
    let p = 0;
    const url = server.url;
    const table: Row[] = [];
    const health = await load('GET /api/health', url, { path: '/api/health' });
    table.push(health);
    const lists: Row[] = [];
    let profile: Row | null = null;
    let bareRow: Row | null = null;
    const runs = (scenario: string) => options.scenarios.has(scenario);
    if (runs('lists')) {
      for (const list of benchLists(sizes)) {
        lists.push(await load(`${list.name}, page 1`, url, { path: list.path, headers }));
        lists.push(
          await load(`${list.name}, page ${list.deepPage.toLocaleString('en')}`, url, {
            path: `${list.path}?page=${list.deepPage}`,
            headers,
          }),
        );
      }
      lists.push(
        await load('pending, search name', url, {
          path: '/api/staff/applications/pending?name=maria%20santos',
          headers,
        }),
        await load('pending, name + phone', url, {
          path: '/api/staff/applications/pending?name=maria&phone=0000123',
          headers,
        }),
        await load('overdue, bucket 31-60', url, { path: '/api/staff/overdue?bucket=31-60', headers }),
        await load('overdue, search name', url, { path: '/api/staff/overdue?name=maria%20santos', headers }),
      );
      table.push(...lists);
      table.push(await load('dashboard summary', url, { path: '/api/staff/dashboard', headers }));
      table.push(await load('dashboard portfolio', url, { path: '/api/staff/dashboard/portfolio', headers }));
    }
    if (runs('profile')) {
      profile = await load('view profile', url, {
        headers,
        requests: [
          {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              path: `/api/staff/applications/${profileIds[p++ % profileIds.length]}`,
            }),
          },
        ],
      });
      table.push(profile);
      if (cluster) {
        bare = await startBareServer(cluster.url);
        let q = 0;
        bareRow = await load('bare Fastify + pg: the same row', bare.url, {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => ({
                ...req,
                path: `/applications/${profileIds[q++ % profileIds.length]}`,
              }),
            },
          ],
        });
        await bare.stop();
        bare = null;
        table.push(bareRow);
      }
    }
    const floors = await raceFloors(url, officer);
    table.push(...floors);
    const decisions = await runDecisions(url, officer, seededIds.application(5));
    table.push(decisions.row);
    if (cluster && runs('two-instances')) {
      await benchTwoInstances(log, {
        first: url,
        startSecond: () =>
          startServer({
            DATABASE_URL: cluster.url,
            DATABASE_POOL_SIZE: '20',
            ...(options.answerCacheMs ? { STAFF_ANSWER_CACHE_MS: options.answerCacheMs } : {}),
          }),
        headers,
        connections: options.connections,
        duration: options.duration,
      });
    }
    const withdrawals = await runWithdrawals(url, cookieName, plan);
    table.push(...withdrawals.results);
    const peak = await server.stop();

    if (!cluster) database = await openDatabase(target);
    log(`\n-- withdrawal invariants (${kind})`);
    await checkInvariants(database.db, [plan.single.loanId], withdrawals.singleCreated);
    await checkInvariants(
      database.db,
      plan.mixed.map((b) => b.loanId),
      withdrawals.mixedCreated,
    );
    log(
      `-- decision race (${kind}): ${decisions.won} of 200 won, ${decisions.lost} answered "already decided"`,
    );
    if (decisions.won !== 1 || decisions.lost !== 199) process.exitCode = 1;
    await database.close();
    printTable(
      `${kind} — ${rows.toLocaleString('en')} applications; server peak RSS ${peak.toFixed(0)} MiB; ${options.connections} clients`,
      table,
    );
    printGoals(kind, health, lists, profile, bareRow, floors, [decisions.row, withdrawals.results[0]!]);
    listRuns.set(kind, { rows, table: lists });
  } finally {
    await bare?.stop();
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Each measured figure next to its goal (issue #12), with pass/fail. */
function printGoals(
  kind: string,
  health: Row,
  lists: Row[],
  profile: Row | null,
  bare: Row | null,
  floors: Row[],
  races: Row[],
) {
  log(`\n${kind}: goals — lists ≥ 0.25× /api/health req/s and p95 ≤ 50 ms at ${options.connections} clients`);
  log(`(${answerCacheNote()})`);
  log('| list | req/s | × health | goal | p95 ms | goal | verdict |');
  log('|---|---:|---:|---:|---:|---:|---|');
  for (const r of lists) {
    const ratio = r.rps / health.rps;
    log(
      `| ${r.scenario} | ${r.rps.toFixed(0)} | ${ratio.toFixed(3)} | ≥ 0.25 | ${r.p95.toFixed(1)} | ≤ 50 | ${r.allOk ? verdict(ratio >= 0.25 && r.p95 <= 50) : `FAIL (answers: ${r.ok})`} |`,
    );
  }
  if (bare) {
    // What one database round trip per request allows on this machine: the lists' goal read against it.
    log(
      `${kind}: for scale, a bare Fastify + pg server answering one row by its key: ${bare.rps.toFixed(0)} req/s = ${(bare.rps / health.rps).toFixed(3)}× health (p95 ${bare.p95.toFixed(1)} ms): about the most a request with a database round trip can reach on this machine`,
    );
  }
  if (profile && bare) {
    const ratio = profile.rps / bare.rps;
    log(
      `\n${kind}: view profile ${profile.rps.toFixed(0)} req/s vs bare Fastify + pg ${bare.rps.toFixed(0)} req/s = ${ratio.toFixed(2)}× (goal ≥ 0.5×) → ${profile.allOk ? verdict(ratio >= 0.5) : `FAIL (answers: ${profile.ok})`}`,
    );
  }
  for (const r of races) {
    log(
      `${kind}: ${r.scenario}: p99 ${r.p99.toFixed(0)} ms (goal ≤ 200 ms; floors: ${floors.map((f) => `${f.scenario.split(' ×')[0]} p99 ${f.p99.toFixed(0)} ms`).join(', ')}), ${r.ok} → ${verdict(r.allOk && r.p99 <= 200)}`,
    );
  }
}

/** PGlite's list req/s over PostgreSQL's, scenario by scenario (goal ≥ 0.5× on the same 100 k rows). */
function printBackendComparison() {
  const pg = listRuns.get('postgres');
  const lite = listRuns.get('pglite');
  if (!pg || !lite) return;
  const same = pg.rows === lite.rows;
  log(
    `\nPGlite vs PostgreSQL, lists (PostgreSQL ${pg.rows.toLocaleString('en')} rows, PGlite ${lite.rows.toLocaleString('en')} rows${same ? '' : ': not the same workload; run with --pg-rows=100000 --pglite-rows=100000 for the goal'})`,
  );
  log('| list | PostgreSQL req/s | PGlite req/s | PGlite ÷ PostgreSQL | goal | verdict |');
  log('|---|---:|---:|---:|---:|---|');
  const ratios: number[] = [];
  for (const r of lite.table) {
    const other = pg.table.find((x) => x.scenario === r.scenario);
    if (!other) continue;
    const ratio = r.rps / other.rps;
    ratios.push(ratio);
    log(
      `| ${r.scenario} | ${other.rps.toFixed(0)} | ${r.rps.toFixed(0)} | ${ratio.toFixed(2)} | ≥ 0.5 | ${verdict(ratio >= 0.5)} |`,
    );
  }
  const mean = Math.exp(ratios.reduce((sum, x) => sum + Math.log(x), 0) / Math.max(1, ratios.length));
  log(`geometric mean ${mean.toFixed(2)}× (goal ≥ 0.5×) → ${verdict(mean >= 0.5)}`);
}

async function main() {
  const bareDatabase = arg('bare-server', '');
  if (bareDatabase) return runBareServer(bareDatabase, Number(arg('bare-port', '0')));
  const runs = (stage: string) => options.only === '' || options.only.split(',').includes(stage);
  if (runs('postgres')) await benchBackend('postgres', options.pgRows);
  if (runs('pglite')) await benchBackend('pglite', options.pgliteRows);
  printBackendComparison();
  if (runs('replay')) await benchReplay(log);
  if (runs('cold-start')) await benchColdStart(log);
  if (runs('first-load') || runs('lighthouse')) {
    // Builds what is missing or stale (web app and server), as `npm start` does.
    execFileSync(process.execPath, ['scripts/build-if-needed.mjs'], { stdio: 'inherit' });
  }
  if (runs('first-load')) {
    log('\n=== first load: bundle sizes per route (goal ≤ 200 KiB of gzipped JS) and bytes on the wire');
    await benchFirstLoad();
  }
  if (runs('lighthouse')) {
    log('\n=== Lighthouse (mobile /login and step 1, desktop /admin/home; goal Performance ≥ 95)');
    await benchLighthouse();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
