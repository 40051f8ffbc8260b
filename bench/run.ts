/**
 * `npm run bench`: seeds PostgreSQL (1,000,000 applications by default) and PGlite (100,000), starts the
 * real server on each, and measures with autocannon the back-office hot paths next to a bare
 * GET /api/health on the same run (so the ratios compare across machines), plus the withdrawal races, the
 * overdue queue and the dashboard's portfolio figures over the repayment-era seed (seedRepayments). Prints
 * EXPLAIN plans to show paging, search and the loan book stay index-backed. On PostgreSQL it also runs the
 * list workload on one instance and on two (bench/two-instances.ts); last, the built app's cold start
 * (bench/cold-start.ts). Options:
 *   --pg-rows=N --pglite-rows=N --duration=S --connections=N --only=postgres|pglite|cold-start
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { defaultRepaymentRules, deriveLoanFacts, previewWithdrawal } from '../src/domain/loan/repayments';
import { overdueListQuery } from '../src/domain/schemas/portfolio';
import { hmac } from '../src/server/auth/crypto';
import { hashPassword } from '../src/server/auth/passwords';
import { codeHash } from '../src/server/auth/verification-codes';
import { defaultPaymentChannels } from '../src/server/config';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import type { Database } from '../src/server/db/schema';
import type { AppDeps } from '../src/server/deps';
import { listOverdueLoans } from '../src/server/features/collections/list-overdue-loans';
import { getDashboardSummary } from '../src/server/features/dashboard/get-dashboard-summary';
import { getPortfolioSummary } from '../src/server/features/dashboard/get-portfolio-summary';
import { listApplications } from '../src/server/features/staff-applications/list-applications';
import { planDigest } from '../src/server/features/wallet/withdrawal-plan';
import { systemClock } from '../src/server/lib/clock';
import { todayIn } from '../src/server/lib/today';
import { loadLoanRecords } from '../src/server/loans/loan-position';
import { freePort } from '../src/server/test-support/free-port';
import { startThrowawayPostgres } from '../src/server/test-support/postgres-cluster';
import { benchColdStart } from './cold-start';
import { seedApplications, seededIds, seededPaidOut, seedRepayments } from './seed';
import { benchTwoInstances } from './two-instances';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const options = {
  pgRows: Number(arg('pg-rows', '1000000')),
  pgliteRows: Number(arg('pglite-rows', '100000')),
  duration: Number(arg('duration', '10')),
  connections: Number(arg('connections', '20')),
  only: arg('only', ''),
};
const SECRET = 'hiram-bench-session-secret-0123456789-abcdefghijklmn';
const log = (message: string) => console.info(message);

interface Row {
  scenario: string;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  ok: string;
}

function percentile(sorted: number[], p: number) {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/** Runs autocannon, recording every response time so p95 is exact (autocannon reports p90/p97.5). */
async function load(
  name: string,
  baseUrl: string,
  opts: Partial<autocannon.Options> & { path?: string; expect?: (status: number) => boolean },
): Promise<Row> {
  const times: number[] = [];
  const statuses = new Map<number, number>();
  let good = 0;
  let total = 0;
  const { path, expect, ...rest } = opts;
  const expectOk = expect ?? ((s: number) => s >= 200 && s < 300);
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const instance = autocannon(
      {
        url: `${baseUrl}${path ?? ''}`,
        connections: options.connections,
        ...(rest.amount ? {} : { duration: options.duration }),
        ...rest,
      } as autocannon.Options,
      (error) => (error ? reject(error) : resolve()),
    );
    instance.on('response', (_client: unknown, status: number, _bytes: number, time: number) => {
      times.push(time);
      statuses.set(status, (statuses.get(status) ?? 0) + 1);
      total += 1;
      if (expectOk(status)) good += 1;
    });
  });
  const seconds = (performance.now() - started) / 1000;
  times.sort((a, b) => a - b);
  return {
    scenario: name,
    rps: total / seconds,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    ok: `${good}/${total}${good < total ? ` (${[...statuses].map(([s, n]) => `${n}×${s}`).join(', ')})` : ''}`,
  };
}

function printTable(title: string, rows: Row[]) {
  const health = rows.find((r) => r.scenario === 'GET /api/health')?.rps ?? 1;
  log(`\n${title}`);
  log('| scenario | req/s | × health | p50 ms | p95 ms | p99 ms | expected answers |');
  log('|---|---:|---:|---:|---:|---:|---:|');
  for (const r of rows) {
    log(
      `| ${r.scenario} | ${r.rps.toFixed(0)} | ${(r.rps / health).toFixed(3)} | ${r.p50.toFixed(1)} | ${r.p95.toFixed(1)} | ${r.p99.toFixed(1)} | ${r.ok} |`,
    );
  }
}

/** The configuration the loan-book use cases read (the server's defaults). */
const benchConfig = (timeZone: string) => ({
  timeZone,
  repaymentRules: defaultRepaymentRules,
  paymentChannels: defaultPaymentChannels,
});

/** The SQL the lists and figures really run, captured through Kysely's log hook, then EXPLAINed. */
async function explainPlans(db: Kysely<Database>, timeZone: string) {
  const captured: CompiledQuery[] = [];
  const deps = {
    db: captureDb(db, captured),
    config: benchConfig(timeZone),
    clock: systemClock,
  } as unknown as AppDeps;
  const overdue = (query: Record<string, unknown>) => () =>
    listOverdueLoans(deps, overdueListQuery.parse(query));
  for (const [label, run] of [
    ['pending, page 1, no search', () => listApplications(deps, 'pending', { page: 1, name: '', phone: '' })],
    [
      'pending, search name "maria santos"',
      () => listApplications(deps, 'pending', { page: 1, name: 'maria santos', phone: '' }),
    ],
    [
      'pending, search name + phone',
      () => listApplications(deps, 'pending', { page: 1, name: 'maria', phone: '0000123' }),
    ],
    ['pending, page 2,000', () => listApplications(deps, 'pending', { page: 2000, name: '', phone: '' })],
    ['dashboard summary', () => getDashboardSummary(deps)],
    ['overdue queue, page 1', overdue({})],
    ['overdue queue, page 500', overdue({ page: '500' })],
    ['overdue queue, bucket 31-60', overdue({ bucket: '31-60' })],
    ['overdue queue, search name "maria santos"', overdue({ name: 'maria santos' })],
    ['overdue queue, loan number contains "12345"', overdue({ q: '12345' })],
    ['dashboard portfolio', () => getPortfolioSummary(deps, todayIn(timeZone))],
  ] as const) {
    captured.length = 0;
    await run().catch(() => {});
    for (const q of captured) {
      const { rows } = await sql
        .raw(`explain (analyze, costs off, timing off, summary off) ${inline(q)}`)
        .execute(db);
      log(`\n-- ${label}: ${q.sql.includes('count(*)') ? 'count' : q.sql.includes('sum(') ? 'sum' : 'rows'}`);
      for (const r of rows as { 'QUERY PLAN': string }[]) log(`   ${r['QUERY PLAN']}`);
    }
  }
}

/**
 * The seeded facts are what refreshLoanFacts would write: a sample of paid-out loans replayed by the model
 * (deriveLoanFacts over their records) against the stored columns.
 */
async function checkSeededFacts(db: Kysely<Database>, rows: number, timeZone: string) {
  const today = todayIn(timeZone);
  const sample = seededPaidOut(rows);
  let agree = 0;
  for (const g of sample) {
    const loan = await db
      .selectFrom('applications')
      .select(['id', 'term_months', 'monthly_rate_bp', 'disclosure', 'next_due_minor', 'unpaid_instalments'])
      .select(sql<number>`outstanding_principal_minor`.as('outstanding'))
      .select(sql<string | null>`next_due_on::text`.as('next_due_on'))
      .where('id', '=', seededIds.application(g))
      .executeTakeFirstOrThrow();
    const { records } = await loadLoanRecords(db, loan, timeZone, benchConfig(timeZone).repaymentRules);
    const facts = deriveLoanFacts(records, today);
    const same =
      facts.outstandingPrincipalMinor === Number(loan.outstanding) &&
      facts.nextDueOn === loan.next_due_on &&
      facts.nextDueMinor === (loan.next_due_minor === null ? null : Number(loan.next_due_minor)) &&
      facts.heldPrincipalMinor === 0 &&
      JSON.stringify(loan.unpaid_instalments) ===
        JSON.stringify(facts.unpaidInstalments.map((i) => [i.dueOn, i.unpaidMinor]));
    if (same) agree += 1;
    else
      log(`   facts of row ${g} differ: stored ${JSON.stringify(loan)}, replayed ${JSON.stringify(facts)}`);
  }
  const verdict = agree === sample.length ? 'agree' : 'DIFFER';
  log(`   seeded loan facts: ${agree}/${sample.length} sampled loans replayed → ${verdict}`);
  if (verdict !== 'agree') process.exitCode = 1;
}

/** The portfolio figures computed straight (no reuse), to show what one computation costs. */
async function timePortfolio(db: Kysely<Database>, timeZone: string) {
  const deps = { db, config: benchConfig(timeZone) } as unknown as AppDeps;
  const times: number[] = [];
  let figures: unknown;
  for (let i = 0; i < 7; i++) {
    const t0 = performance.now();
    figures = await getPortfolioSummary(deps, todayIn(timeZone));
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  log(
    `   portfolio figures uncached: median ${times[3]!.toFixed(1)} ms, max ${times[6]!.toFixed(1)} ms → ${JSON.stringify(figures)}`,
  );
}

/** A Kysely that records compiled queries and answers them with an empty result. */
function captureDb(db: Kysely<Database>, into: CompiledQuery[]): Kysely<Database> {
  return db.withPlugin({
    transformQuery: (args) => {
      into.push(db.getExecutor().compileQuery(args.node, args.queryId));
      return args.node;
    },
    transformResult: async (args) => args.result,
  });
}

/** Substitutes the parameters into the SQL for EXPLAIN (bench-only; values come from this file). */
function inline(q: CompiledQuery): string {
  return q.sql.replace(/\$(\d+)/g, (_, n) => {
    const v = q.parameters[Number(n) - 1];
    return typeof v === 'number' ? String(v) : `'${String(v).replace(/'/g, "''")}'`;
  });
}

async function startServer(
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; stop: () => Promise<number> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: {
      ...process.env,
      NODE_ENV: 'production',
      HOST: '127.0.0.1',
      PORT: String(port),
      PUBLIC_URL: url,
      SESSION_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      DEV_OUTBOX: 'false',
      ...env,
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  for (let i = 0; i < 240; i++) {
    const ok = await fetch(`${url}/api/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (child.exitCode !== null) throw new Error('server exited');
    await new Promise((r) => setTimeout(r, 250));
  }
  const stop = async () => {
    // Peak resident memory of the server process, in MiB.
    let peak = 0;
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peak = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {}
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    return peak;
  };
  return { url, child, stop };
}

async function login(url: string, identifier: string, password: string) {
  const response = await fetch(`${url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ identifier, password }),
  });
  const body = (await response.json()) as { csrfToken: string };
  const cookie = response.headers.get('set-cookie')!.split(';')[0]!;
  return { cookie, csrf: body.csrfToken };
}

/** A session row for a seeded borrower, so 10,000 borrowers need no 10,000 password checks. */
function sessionFor(userId: string) {
  const token = randomUUID() + randomUUID();
  return {
    token,
    row: {
      id_hash: hmac(SECRET, token),
      user_id: userId,
      csrf_token: token.slice(0, 32),
      expires_at: sql<Date>`now() + interval '1 day'`,
    },
  };
}

interface WithdrawalPlan {
  single: { token: string; csrf: string; amount: number; loanId: string };
  mixed: { token: string; csrf: string; amount: number; loanId: string }[];
}

const CODE = '246810';

/** Codes and sessions written straight into the database, so the race measures withdrawals, not logins. */
async function prepareWithdrawals(db: Kysely<Database>, rows: number): Promise<WithdrawalPlan> {
  // Approved rows are those with g % 5 in {2, 3}.
  const approvedG = (i: number) => 5 * i + 2;
  const prepare = async (g: number, amountMinor: number) => {
    const phone = seededIds.phone(g);
    const loanId = seededIds.application(g);
    // The code is bound to the plan the borrower would have been shown (no payouts yet: the first one).
    const plan = planDigest(
      previewWithdrawal(
        {
          termMonths: [6, 12, 18, 24][g % 4]!,
          monthlyRateBp: 200,
          feesMinor: 0,
          disbursements: [],
          repayments: [],
          rules: defaultRepaymentRules,
        },
        { amountMinor, payoutOn: todayIn('Asia/Manila') },
      ),
    );
    const context = `loan=${loanId};amount=${amountMinor};to=GCash|0917${String(g).padStart(7, '0')};plan=${plan}`;
    const { token, row } = sessionFor(await userIdOf(db, g));
    return {
      code: {
        phone,
        purpose: 'withdrawal' as const,
        context,
        code_hash: codeHash(SECRET, { phone, purpose: 'withdrawal', context }, CODE),
        expires_at: sql<Date>`now() + interval '1 hour'`,
      },
      session: row,
      borrower: { token, csrf: row.csrf_token, amount: amountMinor / 100, loanId },
    };
  };
  const single = await prepare(approvedG(1), 100_000);
  await db.insertInto('verification_codes').values(single.code).execute();
  await db.insertInto('sessions').values(single.session).execute();

  const loans = Math.min(10_000, Math.floor(rows / 5) - 20);
  const mixed: WithdrawalPlan['mixed'] = [];
  for (let start = 0; start < loans; start += 1000) {
    const batch = [];
    for (let i = start; i < Math.min(loans, start + 1000); i++) {
      const g = approvedG(i + 10);
      const approvedMinor = (1 + (g % 30)) * 1_000_000;
      // Every 7th asks for more than the loan: refused with "Amount exceeds balance".
      batch.push(await prepare(g, i % 7 === 0 ? approvedMinor + 100 : 100_000 * (1 + (i % 50))));
    }
    await db
      .insertInto('verification_codes')
      .values(batch.map((b) => b.code))
      .execute();
    await db
      .insertInto('sessions')
      .values(batch.map((b) => b.session))
      .execute();
    mixed.push(...batch.map((b) => b.borrower));
  }
  return { single: single.borrower, mixed };
}

async function runWithdrawals(url: string, cookieName: string, plan: WithdrawalPlan) {
  const results: Row[] = [];
  const post = (b: WithdrawalPlan['single']) => ({
    'content-type': 'application/json',
    cookie: `${cookieName}=${b.token}`,
    'x-csrf-token': b.csrf,
  });

  // 200 concurrent withdrawals against one loan, all carrying its one valid code: exactly one may win.
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: 200 }, () => {
      const t0 = performance.now();
      return fetch(`${url}/api/wallet/withdrawals`, {
        method: 'POST',
        headers: post(plan.single),
        body: JSON.stringify({ amount: plan.single.amount, code: CODE, idempotencyKey: randomUUID() }),
      }).then((r) => ({ status: r.status, ms: performance.now() - t0 }));
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const singleCreated = answers.filter((a) => a.status >= 200 && a.status < 300).length;
  const times = answers.map((a) => a.ms).sort((a, b) => a - b);
  results.push({
    scenario: 'POST withdrawals ×200 at once, one loan',
    rps: 200 / seconds,
    p50: percentile(times, 50),
    p95: percentile(times, 95),
    p99: percentile(times, 99),
    ok: `${singleCreated} created`,
  });

  // Mixed withdrawals across up to 10,000 loans (some over the balance), through autocannon.
  let next = 0;
  let mixedCreated = 0;
  const row = await load(`POST withdrawals, ${plan.mixed.length.toLocaleString('en')} loans`, url, {
    amount: plan.mixed.length,
    connections: 50,
    requests: [
      {
        method: 'POST',
        path: '/api/wallet/withdrawals',
        setupRequest: (req: autocannon.Request) => {
          const b = plan.mixed[next++ % plan.mixed.length]!;
          return {
            ...req,
            headers: post(b),
            body: JSON.stringify({ amount: b.amount, code: CODE, idempotencyKey: randomUUID() }),
          };
        },
      },
    ],
    expect: (status) => {
      if (status === 201) mixedCreated += 1;
      return status === 201 || status === 400;
    },
  });
  row.ok = `${mixedCreated} created; ${row.ok} 201 or 400`;
  results.push(row);
  return { results, singleCreated, mixedCreated };
}

const userIds = new Map<number, string>();
async function userIdOf(db: Kysely<Database>, g: number): Promise<string> {
  if (!userIds.has(g)) {
    const r = await db
      .selectFrom('applications')
      .select('borrower_id')
      .where('id', '=', seededIds.application(g))
      .executeTakeFirstOrThrow();
    userIds.set(g, r.borrower_id);
  }
  return userIds.get(g)!;
}

/** requested + paid ≤ approved for every loan, and exactly one row per 2xx answer. */
async function checkInvariants(db: Kysely<Database>, loanIds: string[], created: number) {
  const { rows } = await sql<{ over: number; count: number }>`
    select
      (select count(*) from applications a
        where a.id = any(${loanIds}::uuid[])
          and (select coalesce(sum(d.amount), 0) from disbursements d
               where d.application_id = a.id and d.status in ('requested', 'paid')) > a.approved_amount) as over,
      (select count(*) from disbursements where application_id = any(${loanIds}::uuid[])) as count`.execute(
    db,
  );
  const { over, count } = rows[0]!;
  const verdict = Number(over) === 0 && Number(count) === created ? 'holds' : 'BROKEN';
  log(
    `   invariant: loans over their approved amount = ${over}; rows = ${count}, 2xx answers = ${created} → ${verdict}`,
  );
  if (verdict !== 'holds') process.exitCode = 1;
}

async function benchBackend(kind: 'postgres' | 'pglite', rows: number) {
  log(`\n=== ${kind}: seeding ${rows.toLocaleString('en')} applications`);
  const passwordHash = await hashPassword('bench officer pass');
  const t0 = performance.now();
  const cluster =
    kind === 'postgres' ? await startThrowawayPostgres(['shared_buffers=512MB', 'work_mem=16MB']) : null;
  const dataDir = mkdtempSync(join(tmpdir(), 'hiram-bench-'));
  const target = cluster
    ? ({ kind: 'postgres', url: cluster.url, poolSize: 5 } as const)
    : ({ kind: 'pglite', dataDir } as const);
  try {
    let database = await openDatabase(target);
    await migrateToLatest(database.db);
    await seedApplications(database.db, rows, passwordHash, log);
    await seedRepayments(database.db, rows, log);
    await database.db
      .insertInto('users')
      .values({ username: 'benchofficer', phone: null, password_hash: passwordHash, role: 'officer' })
      .execute();
    log(`   seeded in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
    await checkSeededFacts(database.db, rows, 'Asia/Manila');
    await explainPlans(database.db, 'Asia/Manila');
    await timePortfolio(database.db, 'Asia/Manila');
    const plan = await prepareWithdrawals(database.db, rows);
    // PGlite allows one process on its files: the bench lets go while the server runs.
    if (!cluster) await database.close();

    const server = await startServer(
      cluster ? { DATABASE_URL: cluster.url, DATABASE_POOL_SIZE: '20' } : { DATA_DIR: dataDir },
    );
    const staff = await login(server.url, 'benchofficer', 'bench officer pass');
    const cookieName = staff.cookie.split('=')[0]!;
    const headers = { cookie: staff.cookie };
    const profileIds = Array.from({ length: 1000 }, (_, i) => seededIds.application(1 + ((i * 7919) % rows)));
    let p = 0;
    const url = server.url;
    const table: Row[] = [];
    table.push(await load('GET /api/health', url, { path: '/api/health' }));
    table.push(await load('pending list, page 1', url, { path: '/api/staff/applications/pending', headers }));
    table.push(
      await load('pending list, search name', url, {
        path: '/api/staff/applications/pending?name=maria%20santos',
        headers,
      }),
    );
    table.push(
      await load('pending list, name + phone', url, {
        path: '/api/staff/applications/pending?name=maria&phone=0000123',
        headers,
      }),
    );
    table.push(
      await load('pending list, page 2,000', url, {
        path: '/api/staff/applications/pending?page=2000',
        headers,
      }),
    );
    table.push(await load('dashboard summary', url, { path: '/api/staff/dashboard', headers }));
    table.push(await load('overdue queue, page 1', url, { path: '/api/staff/overdue', headers }));
    table.push(await load('overdue queue, page 500', url, { path: '/api/staff/overdue?page=500', headers }));
    table.push(
      await load('overdue queue, bucket 31-60', url, { path: '/api/staff/overdue?bucket=31-60', headers }),
    );
    table.push(
      await load('overdue queue, search name', url, {
        path: '/api/staff/overdue?name=maria%20santos',
        headers,
      }),
    );
    table.push(await load('dashboard portfolio', url, { path: '/api/staff/dashboard/portfolio', headers }));
    table.push(
      await load('view profile', url, {
        headers,
        requests: [
          {
            setupRequest: (req: autocannon.Request) => ({
              ...req,
              path: `/api/staff/applications/${profileIds[p++ % profileIds.length]}`,
            }),
          },
        ],
      }),
    );
    if (cluster) {
      await benchTwoInstances(log, {
        first: url,
        startSecond: () => startServer({ DATABASE_URL: cluster.url, DATABASE_POOL_SIZE: '20' }),
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
    await database.close();
    printTable(
      `${kind} — ${rows.toLocaleString('en')} applications; server peak RSS ${peak.toFixed(0)} MiB`,
      table,
    );
  } finally {
    await cluster?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  if (options.only === '' || options.only === 'postgres') await benchBackend('postgres', options.pgRows);
  if (options.only === '' || options.only === 'pglite') await benchBackend('pglite', options.pgliteRows);
  if (options.only === '' || options.only === 'cold-start') await benchColdStart(log);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
