import { type CompiledQuery, type Kysely, sql } from 'kysely';
import { todayIn } from '../src/domain/date-text';
import { deriveLoanFacts } from '../src/domain/loan/repayments';
import { repaymentListQuery } from '../src/domain/schemas/payments';
import { overdueListQuery } from '../src/domain/schemas/portfolio';
import { auditQuery } from '../src/domain/schemas/staff';
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
import { systemClock } from '../src/server/lib/clock';
import { loadLoanRecords } from '../src/server/loans/loan-position';
import { benchConfig, log } from './common';
import { seededIds, seededPaidOut } from './seed';

/** The SQL the lists and figures really run, captured through Kysely's log hook, then EXPLAINed. */
export async function explainPlans(db: Kysely<Database>, timeZone: string, sizes: ListSizes) {
  const captured: CompiledQuery[] = [];
  const deps = capturingDeps(db, captured, timeZone);
  const verdicts: string[] = [];
  const plans: [string, () => Promise<unknown>][] = listPages(sizes).map(([name, run]) => [
    name,
    () => run(deps),
  ]);
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
      'pending, search name "maria", page 200',
      () => listApplications(deps, 'pending', { page: 200, name: 'maria', phone: '' }),
    ],
    [
      'approved, search name "maria santos"',
      () => listApplications(deps, 'approved', { page: 1, name: 'maria santos', phone: '' }),
    ],
    [
      'servicing, search name "maria santos"',
      () => listLoans(deps, { page: 1, name: 'maria santos', phone: '' }),
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

export interface ListSizes {
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
export async function listSizes(db: Kysely<Database>): Promise<ListSizes> {
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

export const deepPageOf = (rows: number) => Math.max(1, Math.min(2000, Math.floor(rows / 10 / 2)));

/** Every staff list: its API path and the use case behind it (for EXPLAIN). */
export function benchLists(sizes: ListSizes) {
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
export async function checkSeededFacts(db: Kysely<Database>, rows: number, timeZone: string) {
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
export async function timePortfolio(db: Kysely<Database>, timeZone: string) {
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

/** Every list on page 1 and on its deep page, named as the bench's HTTP runs name them. */
export function listPages(sizes: ListSizes): [name: string, run: (deps: AppDeps) => Promise<unknown>][] {
  return benchLists(sizes).flatMap((list) => [
    [`${list.name}, page 1`, (deps: AppDeps) => list.run(deps, 1)] as const,
    [
      `${list.name}, page ${list.deepPage.toLocaleString('en')}`,
      (deps: AppDeps) => list.run(deps, list.deepPage),
    ] as const,
  ]);
}

/** What the list use cases need, with a database that records the statements they send into `into`. */
export function capturingDeps(
  db: Kysely<Database>,
  into: CompiledQuery[],
  timeZone = 'Asia/Manila',
): AppDeps {
  return {
    db: captureDb(db, into),
    config: benchConfig(timeZone),
    clock: systemClock,
  } as unknown as AppDeps;
}

/**
 * A Kysely that records the statements it runs. Kysely hands plugins every query node it compiles, the
 * derived tables of a statement too, so only the longest SQL of each query id is the statement sent.
 */
export function captureDb(db: Kysely<Database>, into: CompiledQuery[]): Kysely<Database> {
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
export function inline(q: CompiledQuery): string {
  return q.sql.replace(/\$(\d+)/g, (_, n) => {
    const v = q.parameters[Number(n) - 1];
    if (typeof v === 'number') return String(v);
    // An array parameter (`= any($1::text[])`) as PostgreSQL's array literal.
    const text = Array.isArray(v)
      ? `{${v.map((item) => `"${String(item).replace(/["\\]/g, '\\$&')}"`).join(',')}}`
      : String(v);
    return `'${text.replace(/'/g, "''")}'`;
  });
}
