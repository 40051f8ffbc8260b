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
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import Fastify from 'fastify';
import { type CompiledQuery, type Kysely, sql } from 'kysely';
import pg from 'pg';
import { todayIn } from '../src/domain/date-text';
import { defaultRepaymentRules, deriveLoanFacts, previewWithdrawal } from '../src/domain/loan/repayments';
import { repaymentListQuery } from '../src/domain/schemas/payments';
import { overdueListQuery } from '../src/domain/schemas/portfolio';
import { defaultPaymentChannels } from '../src/domain/schemas/settings';
import { auditQuery } from '../src/domain/schemas/staff';
import { hmac } from '../src/server/auth/crypto';
import { hashPassword } from '../src/server/auth/passwords';
import { codeHash } from '../src/server/auth/verification-codes';
import { migrateToLatest, openDatabase } from '../src/server/db/open';
import type { Database } from '../src/server/db/schema';
import type { AppDeps } from '../src/server/deps';
import { listAuditEvents } from '../src/server/features/audit-log/list-audit-events';
import { listOverdueLoans } from '../src/server/features/collections/list-overdue-loans';
import { getDashboardSummary } from '../src/server/features/dashboard/get-dashboard-summary';
import { getPortfolioSummary } from '../src/server/features/dashboard/get-portfolio-summary';
import { listDisbursements } from '../src/server/features/disbursements/list-disbursements';
import { listRepayments } from '../src/server/features/repayments/list-repayments';
import { listUnappliedPayments } from '../src/server/features/repayments/unapplied-payments';
import { listLoans } from '../src/server/features/servicing/list-loans';
import { listApplications } from '../src/server/features/staff-applications/list-applications';
import { listUsers } from '../src/server/features/users/list-users';
import { planDigest } from '../src/server/features/wallet/withdrawal-plan';
import { systemClock } from '../src/server/lib/clock';
import { loadLoanRecords } from '../src/server/loans/loan-position';
import { startAppProcess, waitUntilReady } from '../src/server/test-support/app-process';
import { freePort } from '../src/server/test-support/free-port';
import { startThrowawayPostgres } from '../src/server/test-support/postgres-cluster';
import { benchColdStart } from './cold-start';
import { benchFirstLoad } from './first-load';
import { benchLighthouse } from './lighthouse';
import { benchReplay } from './replay';
import { seedApplications, seedBackOffice, seededIds, seededPaidOut, seedRepayments } from './seed';
import { benchTwoInstances } from './two-instances';

const arg = (name: string, fallback: string) =>
  process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1] ?? fallback;
const options = {
  pgRows: Number(arg('pg-rows', '1000000')),
  pgliteRows: Number(arg('pglite-rows', '100000')),
  duration: Number(arg('duration', '10')),
  connections: Number(arg('connections', '32')),
  only: arg('only', ''),
  scenarios: new Set(arg('scenarios', 'lists,profile,races,two-instances').split(',')),
  /** STAFF_ANSWER_CACHE_MS for the server (docs/decisions/030): the app's default unless given; 0 reads every answer. */
  answerCacheMs: arg('answer-cache-ms', ''),
};
/** How the lists were served, for every table that judges them. */
const answerCacheNote = () =>
  options.answerCacheMs === '0'
    ? 'every answer read from the database (--answer-cache-ms=0)'
    : `back-office answers reused for up to ${options.answerCacheMs || 'the default 2,000'} ms until a change empties them (docs/decisions/030; --answer-cache-ms=0 reads every one)`;
const SECRET = 'hiram-bench-session-secret-0123456789-abcdefghijklmn';
const log = (message: string) => console.info(message);

interface Row {
  scenario: string;
  /** Every answer was the expected one: a fast refusal is not a fast list. */
  allOk: boolean;
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
  log(`   ${name}: ${(total / seconds).toFixed(0)} req/s, p95 ${percentile(times, 95).toFixed(1)} ms`);
  return {
    scenario: name,
    allOk: total > 0 && good === total,
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
  paymentChannels: [...defaultPaymentChannels],
});

/** The SQL the lists and figures really run, captured through Kysely's log hook, then EXPLAINed. */
async function explainPlans(db: Kysely<Database>, timeZone: string, sizes: ListSizes) {
  const captured: CompiledQuery[] = [];
  const deps = {
    db: captureDb(db, captured),
    config: benchConfig(timeZone),
    clock: systemClock,
  } as unknown as AppDeps;
  const verdicts: string[] = [];
  const plans: [string, () => Promise<unknown>][] = [];
  for (const list of benchLists(sizes)) {
    plans.push([`${list.name}, page 1`, () => list.run(deps, 1)]);
    plans.push([
      `${list.name}, page ${list.deepPage.toLocaleString('en')}`,
      () => list.run(deps, list.deepPage),
    ]);
  }
  plans.push(
    [
      'pending, search name "maria santos"',
      () => listApplications(deps, 'pending', { page: 1, name: 'maria santos', phone: '' }),
    ],
    [
      'pending, search name + phone',
      () => listApplications(deps, 'pending', { page: 1, name: 'maria', phone: '0000123' }),
    ],
    [
      'overdue queue, bucket 31-60',
      () => listOverdueLoans(deps, overdueListQuery.parse({ bucket: '31-60' })),
    ],
    [
      'overdue queue, search name "maria santos"',
      () => listOverdueLoans(deps, overdueListQuery.parse({ name: 'maria santos' })),
    ],
    [
      'overdue queue, loan number contains "12345"',
      () => listOverdueLoans(deps, overdueListQuery.parse({ q: '12345' })),
    ],
    [
      'overdue queue, loan number typed "hl 26 012345"',
      () => listOverdueLoans(deps, overdueListQuery.parse({ q: 'hl 26 012345' })),
    ],
    ['dashboard summary', () => getDashboardSummary(deps)],
    ['dashboard portfolio', () => getPortfolioSummary(deps, todayIn(timeZone))],
  );
  for (const [label, run] of plans) {
    captured.length = 0;
    await run().catch(() => {});
    for (const q of captured) {
      const { rows } = await sql
        .raw(`explain (analyze, buffers, costs off, timing off, summary off) ${inline(q)}`)
        .execute(db);
      const lines = (rows as { 'QUERY PLAN': string }[]).map((r) => r['QUERY PLAN']);
      const kind = q.sql.includes('over ()')
        ? 'page + capped count'
        : q.sql.includes('count(*)')
          ? 'count'
          : q.sql.includes('sum(')
            ? 'sum'
            : 'rows';
      log(`\n-- ${label}: ${kind}`);
      for (const line of lines) log(`   ${line}`);
      // Big tables only: a sequential scan of a handful of rows (an empty queue) is the right plan.
      const seqScans = lines.filter((l) =>
        /Seq Scan on (applications|users|disbursements|repayments|audit_events)\b/.test(l),
      );
      const spilled = lines.filter((l) => /external (merge|sort)|Disk: /.test(l));
      const indexOnly = lines.some((l) => l.includes('Index Only Scan'));
      verdicts.push(
        `| ${label} | ${kind} | ${indexOnly ? 'yes' : 'no'} | ${seqScans.length} | ${spilled.length} | ${seqScans.length + spilled.length === 0 ? 'pass' : 'FAIL'} |`,
      );
    }
  }
  log('\nPlans: every list statement index-backed, no sequential scan of a big table, no sort on disk');
  log('| statement | kind | index-only scan | seq scans | sorts on disk | verdict |');
  log('|---|---|---|---:|---:|---|');
  for (const v of verdicts) log(v);
}

interface ListSizes {
  pending: number;
  running: number;
  disbursements: number;
  audit: number;
  users: number;
  repayments: number;
  overdue: number;
  unapplied: number;
}

/** How many rows each list has, to pick a deep page that exists (page 2,000 where there are enough). */
async function listSizes(db: Kysely<Database>): Promise<ListSizes> {
  const { rows } = await sql<Record<keyof ListSizes, string>>`
    select (select count(*) from applications where status = 'pending') as pending,
           (select count(*) from applications where status in ('approved', 'on_hold')) as running,
           (select count(*) from disbursements) as disbursements,
           (select count(*) from audit_events) as audit,
           (select count(*) from users) as users,
           (select count(*) from repayments) as repayments,
           (select count(*) from applications where status in ('approved', 'on_hold')
              and next_due_on < current_date) as overdue,
           (select count(*) from unapplied_payments) as unapplied`.execute(db);
  return Object.fromEntries(Object.entries(rows[0]!).map(([k, v]) => [k, Number(v)])) as unknown as ListSizes;
}

const deepPageOf = (rows: number) => Math.max(1, Math.min(2000, Math.floor(rows / 10 / 2)));

/** Every staff list: its API path and the use case behind it (for EXPLAIN). */
function benchLists(sizes: ListSizes) {
  const list = (
    name: string,
    path: string,
    rows: number,
    run: (deps: AppDeps, page: number) => Promise<unknown>,
  ) => ({ name, path, deepPage: deepPageOf(rows), run });
  const search = { name: '', phone: '' };
  return [
    list('pending', '/api/staff/applications/pending', sizes.pending, (d, page) =>
      listApplications(d, 'pending', { page, ...search }),
    ),
    list('approved', '/api/staff/applications/approved', sizes.running, (d, page) =>
      listApplications(d, 'approved', { page, ...search }),
    ),
    list('servicing', '/api/staff/loans', sizes.running, (d, page) => listLoans(d, { page, ...search })),
    list('disbursements', '/api/staff/disbursements', sizes.disbursements, (d, page) =>
      listDisbursements(d, { page, ...search }),
    ),
    list('audit', '/api/admin/audit', sizes.audit, (d, page) =>
      listAuditEvents(d, auditQuery.parse({ page })),
    ),
    list('users', '/api/admin/users', sizes.users, (d, page) => listUsers(d, { page, phone: '' })),
    list('repayments', '/api/staff/repayments', sizes.repayments, (d, page) =>
      listRepayments(d, repaymentListQuery.parse({ page })),
    ),
    list('overdue', '/api/staff/overdue', sizes.overdue, (d, page) =>
      listOverdueLoans(d, overdueListQuery.parse({ page })),
    ),
    list('unapplied', '/api/staff/unapplied-payments', sizes.unapplied, (d, page) =>
      listUnappliedPayments(d, page),
    ),
  ];
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
      .select(['id', 'term_months', 'terms', 'next_due_minor', 'unpaid_instalments'])
      .select(sql<number>`outstanding_principal_minor`.as('outstanding'))
      .select(sql<string | null>`next_due_on::text`.as('next_due_on'))
      .where('id', '=', seededIds.application(g))
      .executeTakeFirstOrThrow();
    const { records } = await loadLoanRecords(db, loan, timeZone);
    const facts = deriveLoanFacts(records, today);
    const same =
      facts.outstandingPrincipalMinor === Number(loan.outstanding) &&
      facts.principalStepMinor === 0 &&
      facts.nextDueOn === loan.next_due_on &&
      facts.nextDueMinor === (loan.next_due_minor === null ? null : Number(loan.next_due_minor)) &&
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

/**
 * A Kysely that records the statements it runs. Kysely hands plugins every query node it compiles, the
 * derived tables of a statement too, so only the longest SQL of each query id is the statement sent.
 */
function captureDb(db: Kysely<Database>, into: CompiledQuery[]): Kysely<Database> {
  const compiled = new Map<unknown, CompiledQuery>();
  return db.withPlugin({
    transformQuery: (args) => {
      const q = db.getExecutor().compileQuery(args.node, args.queryId);
      const seen = compiled.get(args.queryId);
      if (!seen || q.sql.length > seen.sql.length) compiled.set(args.queryId, q);
      return args.node;
    },
    transformResult: async (args) => {
      const q = compiled.get(args.queryId);
      if (q) into.push(q);
      return args.result;
    },
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
  const server = await startAppProcess(
    'the server',
    {
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      SESSION_SECRET: SECRET,
      LOG_LEVEL: 'warn',
      DEV_OUTBOX: 'false',
      // Every bench client calls from 127.0.0.1: the per-address ceilings (issue #15) would measure the
      // limiter, not the list or the withdrawal. The per-account ones still hold.
      RATE_LIMIT_LOGIN_PER_IP_PER_HOUR: '10000000',
      RATE_LIMIT_WITHDRAWALS_PER_IP_PER_HOUR: '10000000',
      // The withdrawal races send hundreds of requests for one borrower: the race is what they measure.
      RATE_LIMIT_WITHDRAWALS_PER_ACCOUNT_PER_HOUR: '10000000',
      RATE_LIMIT_UPLOADS_PER_IP_PER_HOUR: '10000000',
      LOGIN_FAILURES_PER_IP: '100000',
      // The bench's admin and officer sign in with a password: with the default (admin and finance must use
      // a second factor, issue #15) every admin request would be refused until they enrol, and the lists
      // would measure that refusal.
      STAFF_2FA_REQUIRED_ROLES: 'none',
      // The seed has ~50,000 loans past due: the reminder job would send them their reminders during the
      // measurements (and hold up the server's exit after them). The bench measures requests.
      JOBS_ENABLED: 'false',
      ...env,
    },
    { port, production: true, inheritEnv: true, echo: true },
  );
  await waitUntilReady(server, { path: '/api/health', timeoutMs: 180_000, pollMs: 250 });
  const { child } = server;
  const stop = async () => {
    // Peak resident memory of the server process, in MiB.
    let peak = 0;
    try {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      peak = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
    } catch {}
    await server.stop();
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
        { amountMinor, feeMinor: 0, payoutOn: todayIn('Asia/Manila') },
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
  const { answers, times, seconds } = await burst(url, () =>
    fetch(`${url}/api/wallet/withdrawals`, {
      method: 'POST',
      headers: post(plan.single),
      body: JSON.stringify({ amount: plan.single.amount, code: CODE, idempotencyKey: randomUUID() }),
    }),
  );
  const singleCreated = answers.filter((status) => status >= 200 && status < 300).length;
  results.push({
    scenario: 'POST withdrawals ×200 at once, one loan',
    // The balance covers one of them: exactly one may be created.
    allOk: singleCreated === 1,
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
    // A request that times out may still commit: wait long enough that every 2xx is counted.
    timeout: 120,
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

const verdict = (ok: boolean) => (ok ? 'pass' : 'FAIL');

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

/**
 * 200 requests sent at once (`send(i)`), each timed from its start to the end of its answer. Connections
 * are opened first by a burst to /api/health, so a race measures the server, not 200 TCP handshakes; the
 * same burst to /api/health, timed, is the client's own floor on this machine (`raceFloor`).
 */
async function burst(url: string, send: (i: number) => Promise<Response>, count = 200) {
  await timedBurst(() => fetch(`${url}/api/health`), count);
  return timedBurst(send, count);
}

async function timedBurst(send: (i: number) => Promise<Response>, count: number) {
  const started = performance.now();
  const answers = await Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const t0 = performance.now();
      const response = await send(i);
      await response.arrayBuffer();
      return { status: response.status, ms: performance.now() - t0 };
    }),
  );
  return {
    answers: answers.map((a) => a.status),
    times: answers.map((a) => a.ms).sort((a, b) => a - b),
    seconds: (performance.now() - started) / 1000,
  };
}

/**
 * A race's floors on this machine, on warm connections: 200 × GET /api/health at once (the client, HTTP and
 * the machine) and 200 × GET /api/me signed in (plus a session read from the database each).
 */
async function raceFloors(url: string, officer: { cookie: string }): Promise<Row[]> {
  const floors: Row[] = [];
  for (const [scenario, send] of [
    ["GET /api/health ×200 at once (a race's floor)", () => fetch(`${url}/api/health`)],
    [
      'GET /api/me ×200 at once, signed in',
      () => fetch(`${url}/api/me`, { headers: { cookie: officer.cookie } }),
    ],
  ] as const) {
    const { answers, times, seconds } = await burst(url, send);
    floors.push({
      scenario,
      allOk: answers.every((status) => status === 200),
      rps: answers.length / seconds,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      p99: percentile(times, 99),
      ok: `${answers.filter((status) => status === 200).length} ok`,
    });
  }
  return floors;
}

/** 200 simultaneous decisions (approve or reject) on one pending application: exactly one may win. */
async function runDecisions(url: string, officer: { cookie: string; csrf: string }, id: string) {
  const headers = {
    'content-type': 'application/json',
    cookie: officer.cookie,
    'x-csrf-token': officer.csrf,
  };
  const { answers, times, seconds } = await burst(url, (i) => {
    const [action, body] =
      i % 3 === 0 ? ['reject', { reason: `bench ${i}` }] : ['approve', { creditScore: 500 }];
    return fetch(`${url}/api/staff/applications/${id}/${action}`, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
    });
  });
  const won = answers.filter((status) => status === 200).length;
  const lost = answers.filter((status) => status === 409).length;
  return {
    won,
    lost,
    row: {
      scenario: 'POST decisions ×200 at once, one application',
      allOk: won === 1 && lost === 199,
      rps: 200 / seconds,
      p50: percentile(times, 50),
      p95: percentile(times, 95),
      p99: percentile(times, 99),
      ok: `${won} won, ${lost} already decided`,
    },
  };
}

/**
 * The yardstick for a single-record GET: a bare Fastify + pg server (same pool size, no session, no
 * headers, no schema) answering the same single-row SELECT of an application by id. It runs as its own
 * process, like the app: this file with `--bare-server=<database url>`.
 */
async function startBareServer(databaseUrl: string) {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'bench/run.ts', `--bare-server=${databaseUrl}`, `--bare-port=${port}`],
    { env: { ...process.env, NODE_ENV: 'production' }, stdio: ['ignore', 'inherit', 'inherit'] },
  );
  for (let i = 0; i < 240; i++) {
    if (
      await fetch(`${url}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (child.exitCode !== null) throw new Error('bare server exited');
    await new Promise((r) => setTimeout(r, 250));
  }
  return {
    url,
    child,
    stop: async () => {
      if (child.exitCode !== null) return 0;
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      return 0;
    },
  };
}

async function runBareServer(databaseUrl: string, port: number) {
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 20 });
  pool.on('error', () => {});
  const app = Fastify();
  app.get('/health', async () => ({ ok: true }));
  app.get<{ Params: { id: string } }>('/applications/:id', async (request, reply) => {
    const { rows } = await pool.query('select * from applications where id = $1', [request.params.id]);
    if (!rows[0]) return reply.code(404).send({ error: 'not found' });
    return rows[0];
  });
  await app.listen({ host: '127.0.0.1', port });
  process.once('SIGTERM', () => {
    void app
      .close()
      .then(() => pool.end())
      .then(() => process.exit(0));
  });
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
