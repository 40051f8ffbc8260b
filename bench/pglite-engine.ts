/**
 * PGlite's engine next to PostgreSQL's (issue #35, docs/decisions/059): the staff lists' own statements —
 * the ones the server sends for each list the bench measures over HTTP — executed inside each database on
 * the same seeded rows, timed by EXPLAIN ANALYZE's "Execution Time" (the executor alone: no network, no
 * Node, no JSON), median of 5 after a warm-up. The plans are compared too (EXPLAIN without costs), so a
 * slower figure is the engine running the same plan, not a different plan. The reference measured in the
 * same run is a pure arithmetic loop (the sum of 2 M numbers from generate_series), which touches no table
 * and no index: how fast each engine's executor itself is on this machine.
 * `npx tsx bench/pglite-engine.ts [--rows=100000]`, or `npm run bench -- --only=pglite-engine`.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { overdueListQuery } from '../src/domain/schemas/portfolio';
import { hashPassword } from '../src/server/auth/passwords';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import type { Database } from '../src/server/db/schema';
import type { AppDeps } from '../src/server/deps';
import { listOverdueLoans } from '../src/server/features/collections/list-overdue-loans';
import { listApplications } from '../src/server/features/staff-applications/list-applications';
import { startThrowawayPostgres } from '../src/server/test-support/postgres-cluster';
import { arg, BENCH_STAFF_PASSWORD, geometricMean, log, recordGoal } from './common';
import { capturingDeps, inline, listPages, listSizes } from './plans';
import { seedAll, seedBenchStaff } from './seed';

/** Per list (named as the HTTP lists of bench/run.ts): milliseconds of execution on each engine. */
export interface EngineFigure {
  scenario: string;
  statements: number;
  postgresMs: number;
  pgliteMs: number;
  /**
   * Planning, beside: the server plans each statement on PGlite every time, while on PostgreSQL it keeps
   * prepared statements (db/prepared-statements.ts), whose plans are reused.
   */
  postgresPlanMs: number;
  pglitePlanMs: number;
  samePlan: boolean;
}

export interface EngineComparison {
  rows: number;
  lists: EngineFigure[];
  /** The arithmetic loop: milliseconds on each engine. */
  loop: { postgresMs: number; pgliteMs: number };
}

type Scenario = [name: string, run: (deps: AppDeps) => Promise<unknown>];

/** The same lists, pages and searches as bench/run.ts measures over HTTP, under the same names. */
function scenarios(sizes: Awaited<ReturnType<typeof listSizes>>): Scenario[] {
  const out: Scenario[] = listPages(sizes);
  out.push(
    [
      'pending, search name',
      (d) => listApplications(d, 'pending', { page: 1, name: 'maria santos', phone: '' }),
    ],
    [
      'pending, name + phone',
      (d) => listApplications(d, 'pending', { page: 1, name: 'maria', phone: '0000123' }),
    ],
    ['overdue, bucket 31-60', (d) => listOverdueLoans(d, overdueListQuery.parse({ bucket: '31-60' }))],
    ['overdue, search name', (d) => listOverdueLoans(d, overdueListQuery.parse({ name: 'maria santos' }))],
  );
  return out;
}

/** The statements each scenario sends, captured from the real use case on `db`. */
async function statementsOf(db: Kysely<Database>, list: Scenario[]) {
  const captured: CompiledQuery[] = [];
  const deps = capturingDeps(db, captured);
  const out = new Map<string, CompiledQuery[]>();
  for (const [name, run] of list) {
    // The second call's statements, as in the HTTP runs' steady state: a search found to match more than
    // its list sorts is remembered and read by walking from then on (docs/decisions/051).
    await run(deps);
    captured.length = 0;
    await run(deps);
    // In text order: a list's statements may run side by side (a page and its count), so the order they
    // finish in differs between the two databases.
    out.set(
      name,
      [...captured].sort((a, b) => a.sql.localeCompare(b.sql)),
    );
  }
  return out;
}

const planLines = (rows: unknown[]) => (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']);

/** EXPLAIN ANALYZE's execution and planning times, each the median of 5 after one warm-up run. */
async function timesOf(db: Kysely<Database>, statement: string): Promise<{ run: number; plan: number }> {
  const runs: number[] = [];
  const plans: number[] = [];
  const timeOf = (lines: string[], label: string) => {
    const line = lines.find((l) => l.startsWith(label)) ?? '';
    const ms = Number(/: ([\d.]+) ms/.exec(line)?.[1]);
    if (!Number.isFinite(ms)) throw new Error(`no ${label} for: ${statement.slice(0, 120)}`);
    return ms;
  };
  for (let i = 0; i < 6; i++) {
    const { rows } = await sql.raw(`explain (analyze) ${statement}`).execute(db);
    if (i === 0) continue;
    runs.push(timeOf(planLines(rows), 'Execution Time'));
    plans.push(timeOf(planLines(rows), 'Planning Time'));
  }
  const median = (xs: number[]) => xs.sort((a, b) => a - b)[2]!;
  return { run: median(runs), plan: median(plans) };
}

/**
 * The plan's shape: nodes, indexes and conditions, without costs, worker counts or constants (each database
 * was seeded with its own random ids, so a statement's values differ between the two).
 */
async function planShape(db: Kysely<Database>, statement: string): Promise<string> {
  const { rows } = await sql.raw(`explain (costs off) ${statement}`).execute(db);
  return (
    planLines(rows)
      // PGlite is PostgreSQL 17, which also prints a window's definition ("Window: w1 AS ()"); the
      // throw-away cluster is Debian's PostgreSQL 15.
      .filter((l) => !/Workers (Planned|Launched)|^\s*Window: /.test(l))
      .map((l) =>
        l
          .replace(/ \(returns \$\d+(,\$\d+)*\)/, '') // PostgreSQL 15's InitPlan label
          .replace(/'(?:[^']|'')*'/g, "'…'")
          .replace(/\b\d+(\.\d+)?\b/g, 'N'),
      )
      .join('\n')
  );
}

export async function benchPgliteEngine(rows: number): Promise<EngineComparison> {
  log(
    `\n=== PGlite's engine next to PostgreSQL's: the lists' statements executed inside each database, ${rows.toLocaleString('en')} rows each (load ${loadavg()[0]!.toFixed(2)})`,
  );
  const hash = await hashPassword(BENCH_STAFF_PASSWORD);
  const cluster = await startThrowawayPostgres(['shared_buffers=512MB', 'work_mem=16MB', 'autovacuum=off']);
  const liteDir = mkdtempSync(join(tmpdir(), 'hiram-engine-'));
  const postgres = await openDatabase({ kind: 'postgres', url: cluster.url, poolSize: 2 });
  // The server's own settings for an embedded start (128 MB of shared buffers, as `npm start`).
  const pglite = await openDatabase({ kind: 'pglite', dataDir: liteDir });
  try {
    for (const [name, d] of [
      ['PostgreSQL', postgres],
      ['PGlite', pglite],
    ] as const) {
      await migrateToLatest(d.db);
      const seeded = await seedAll(d.db, rows, hash, () => {});
      await seedBenchStaff(d.db, hash);
      await sql`vacuum analyze`.execute(d.db);
      log(`${name}: seeded in ${seeded.seconds.toFixed(0)} s (load ${loadavg()[0]!.toFixed(2)})`);
    }
    const list = scenarios(await listSizes(postgres.db));
    const onPostgres = await statementsOf(postgres.db, list);
    const onPglite = await statementsOf(pglite.db, list);
    const lists: EngineFigure[] = [];
    for (const [name] of list) {
      const a = onPostgres.get(name) ?? [];
      const b = onPglite.get(name) ?? [];
      if (a.length !== b.length)
        throw new Error(`${name}: ${a.length} statements on PostgreSQL, ${b.length} on PGlite`);
      let postgresMs = 0;
      let pgliteMs = 0;
      let postgresPlanMs = 0;
      let pglitePlanMs = 0;
      let samePlan = true;
      for (const [i, q] of a.entries()) {
        const pq = inline(q);
        const lq = inline(b[i]!);
        // Interleaved, so a busy moment on the machine slows both alike.
        const onPostgres = await timesOf(postgres.db, pq);
        const onPglite = await timesOf(pglite.db, lq);
        postgresMs += onPostgres.run;
        pgliteMs += onPglite.run;
        postgresPlanMs += onPostgres.plan;
        pglitePlanMs += onPglite.plan;
        const shapes = [await planShape(postgres.db, pq), await planShape(pglite.db, lq)];
        if (shapes[0] !== shapes[1]) {
          samePlan = false;
          log(`${name}: the plans differ\n--- PostgreSQL\n${shapes[0]}\n--- PGlite\n${shapes[1]}`);
        }
      }
      lists.push({
        scenario: name,
        statements: a.length,
        postgresMs,
        pgliteMs,
        postgresPlanMs,
        pglitePlanMs,
        samePlan,
      });
    }
    const loopSql = 'select sum(g % 7) from generate_series(1, 2000000) g';
    const loop = {
      postgresMs: (await timesOf(postgres.db, loopSql)).run,
      pgliteMs: (await timesOf(pglite.db, loopSql)).run,
    };
    const comparison = { rows, lists, loop };
    printEngine(comparison);
    return comparison;
  } finally {
    await postgres.close();
    await pglite.close();
    await cluster.stop();
    rmSync(liteDir, { recursive: true, force: true });
  }
}

function printEngine({ rows, lists, loop }: EngineComparison) {
  log(
    '| list | statements | PostgreSQL ms | PGlite ms | engine ratio (PostgreSQL ÷ PGlite time) | same plan | planning ms (PostgreSQL, PGlite) |',
  );
  log('|---|---:|---:|---:|---:|---|---:|');
  for (const l of lists) {
    log(
      `| ${l.scenario} | ${l.statements} | ${l.postgresMs.toFixed(2)} | ${l.pgliteMs.toFixed(2)} | ${(l.postgresMs / l.pgliteMs).toFixed(2)}× | ${l.samePlan ? 'yes' : 'no'} | ${l.postgresPlanMs.toFixed(2)}, ${l.pglitePlanMs.toFixed(2)} |`,
    );
  }
  const ratios = lists.map((l) => l.postgresMs / l.pgliteMs);
  const loopRatio = loop.postgresMs / loop.pgliteMs;
  log(
    `reference, same run: an arithmetic loop (2 M rows of generate_series, no table) ${loop.postgresMs.toFixed(0)} ms on PostgreSQL, ${loop.pgliteMs.toFixed(0)} ms on PGlite = ${loopRatio.toFixed(2)}× (load ${loadavg()[0]!.toFixed(2)})`,
  );
  const different = lists.filter((l) => !l.samePlan).map((l) => l.scenario);
  const samePlan = lists.filter((l) => l.samePlan).map((l) => l.postgresMs / l.pgliteMs);
  recordGoal(
    "PGlite vs PostgreSQL, measured floor: the lists' statements executed inside each database",
    `lowest ${Math.min(...ratios).toFixed(2)}×, geometric mean ${geometricMean(ratios).toFixed(2)}× over ${lists.length} lists at ${rows.toLocaleString('en')} rows (${samePlan.length} on the same plan: ${geometricMean(samePlan).toFixed(2)}×; ${different.length === 0 ? 'no plan differs' : `plans differ for ${different.join(', ')}`}); arithmetic loop ${loopRatio.toFixed(2)}×`,
    // The explanation holds when the executor itself, on no table and on the same plans, is below 0.5×:
    // then no read whose time is mostly its statement can reach 0.5× (docs/decisions/059).
    loopRatio < 0.5 && samePlan.length > 0 && geometricMean(samePlan) < 0.5,
  );
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  await benchPgliteEngine(Number(arg('rows', '100000')));
  process.exit(0);
}
