import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApplications } from '../../../../bench/seed';
import { approvedStatuses, awaitingDecisionStatuses, loanStatuses } from '../../../domain/loan/status';
import type { DashboardSummary } from '../../../domain/schemas/staff';
import type { Database } from '../../db/schema';
import { today } from '../../lib/clock';
import { sqlList } from '../../lib/sql-lists';
import { applicationFields } from '../../test-support/application-form';
import { jpegWithGps, multipartBody, pngPhoto, signaturePng, webpPhoto } from '../../test-support/images';
import { payOutThroughApi, seedApplication, storedStatus } from '../../test-support/seed';
import { type Agent, createTestApp, shiftedClock, type TestApp } from '../../test-support/test-app';
import { getDashboardSummary } from './get-dashboard-summary';

/**
 * The dashboard's figures are kept by triggers (migration 032, docs/decisions/042). Whatever writes —
 * the app's use cases, a set-based bulk insert, operator SQL, 200 writers at once — the stored figures
 * equal a fresh full aggregate over the tables, and the summary equals the statement the dashboard ran
 * before (every figure re-aggregated from the whole tables).
 */
const clock = shiftedClock();
let t: TestApp;
let officer: Agent;
let admin: Agent;
let finance: Agent;
let adminId: string;

beforeAll(async () => {
  t = await createTestApp({ clock });
  const agents: Agent[] = [];
  for (const role of ['officer', 'admin', 'finance'] as const) {
    const { user, password } = await t.createUser({ role });
    if (role === 'admin') adminId = user.id;
    agents.push(await t.loginAs(user.username!, password));
  }
  [officer, admin, finance] = agents as [Agent, Agent, Agent];
});
afterAll(() => t.close());

interface Figure {
  figure: string;
  part: string;
  n: number;
  amount: number;
}
const byKey = (a: Figure, b: Figure) => `${a.figure}/${a.part}`.localeCompare(`${b.figure}/${b.part}`);

/** What the triggers stored, summed over the shards; figures that came back to zero are left out. */
async function storedFigures(db: Kysely<Database>): Promise<Figure[]> {
  const { rows } = await sql<Figure>`
    select figure, part, sum(n)::float8 as n, sum(amount)::float8 as amount from dashboard_figures
    group by figure, part having sum(n) <> 0 or sum(amount) <> 0`.execute(db);
  return rows.sort(byKey);
}

/** The queues' and payouts' counts (migrations 046, 047) as stored, summed over the shards, and recomputed. */
async function queueCounts(db: Kysely<Database>) {
  const { rows: stored } = await sql<Figure>`
    select figure, part, sum(n)::float8 as n, sum(amount)::float8 as amount from queue_counts
    group by figure, part having sum(n) <> 0 or sum(amount) <> 0`.execute(db);
  const { rows: recomputed } = await sql<Figure>`
    select 'queue_pending' as figure,
           to_char(date_trunc('hour', submitted_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24') as part,
           count(*)::float8 as n, 0::float8 as amount
      from applications where status = 'pending' group by 2
    union all
    select 'queue_pending_total', '', count(*)::float8, 0 from applications where status = 'pending'
      having count(*) > 0
    union all
    select 'queue_running',
           coalesce(to_char(date_trunc('hour', decided_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24'), ''),
           count(*)::float8, 0
      from applications where status in ('approved', 'on_hold') group by 2
    union all
    select 'queue_running_total', '', count(*)::float8, 0 from applications where status in ('approved', 'on_hold')
      having count(*) > 0
    union all
    select 'overdue_pairs', to_char(next_due_on, 'YYYY-MM-DD') || '/' || to_char(overdue_from, 'YYYY-MM-DD'),
           count(*)::float8, 0
      from applications
      where status in ('approved', 'on_hold') and next_due_on is not null and overdue_from is not null
      group by 2
    union all
    select figure, part, count(*)::float8, 0
      from disbursements,
      lateral (select to_char(date_trunc('hour', requested_at at time zone 'UTC'), 'YYYY-MM-DD"T"HH24') as hour) h,
      lateral (values ('payouts', h.hour), ('payouts_total', ''), ('payouts_' || status, h.hour),
                      ('payouts_' || status || '_total', '')) f (figure, part)
      group by 1, 2`.execute(db);
  const { rows: zeros } = await sql<{ n: number }>`
    select count(*)::int as n from queue_counts where n = 0 and amount = 0`.execute(db);
  return { stored: stored.sort(byKey), recomputed: recomputed.sort(byKey), zeros: zeros[0]!.n };
}

/** The quarter hour (UTC, from 2000-01-01) a time falls in. */
const quarter = (column: string) =>
  sql.raw(`date_bin(interval '15 minutes', ${column}, timestamptz '2000-01-01T00:00:00Z')`);

/** Each quarter hour's smallest and largest submitted amount, as stored and as recomputed. */
async function amountQuarters(db: Kysely<Database>) {
  const { rows: stored } = await sql<{ quarter: Date; low: number; high: number }>`
    select quarter, low_amount::float8 as low, high_amount::float8 as high from application_quarters
    order by 1`.execute(db);
  const { rows: recomputed } = await sql<{ quarter: Date; low: number; high: number }>`
    select ${quarter('submitted_at')} as quarter, min(amount)::float8 as low, max(amount)::float8 as high
    from applications group by 1 order by 1`.execute(db);
  return { stored, recomputed };
}

/** A zone whose midnight is not on a quarter hour (UTC+05:07, POSIX signs inverted). */
const ODD_ZONE = '<+0507>-05:07';

/** The same figures recomputed from the whole tables, written independently of the migration. */
async function recomputedFigures(db: Kysely<Database>): Promise<Figure[]> {
  const { rows } = await sql<Figure>`
    select 'applications' as figure, status as part, count(*)::float8 as n, sum(amount)::float8 as amount
      from applications group by status
    union all
    select 'borrowers', '', count(*)::float8, 0 from users where role = 'borrower' having count(*) > 0
    union all
    select 'open_complaints', '', count(*)::float8, 0 from complaints where status <> 'resolved' having count(*) > 0
    union all
    select 'resolve_hours', floor(extract(epoch from resolved_at - created_at) / 3600)::bigint::text,
           count(*)::float8, 0
      from complaints where status = 'resolved' group by 2
    union all
    select 'book', '', count(*)::float8, sum(outstanding_principal_minor)::float8
      from applications where status in ('approved', 'on_hold') and facts_as_of is not null
      having count(*) > 0
    union all
    select 'overdue_from', to_char(overdue_from, 'YYYY-MM-DD'), count(*)::float8, 0
      from applications
      where status in ('approved', 'on_hold') and facts_as_of is not null and overdue_from is not null
      group by 2
    union all
    select 'next_due', to_char(next_due_on, 'YYYY-MM-DD'), count(*)::float8, sum(outstanding_principal_minor)::float8
      from applications
      where status in ('approved', 'on_hold') and facts_as_of is not null and next_due_on is not null
      group by 2
    union all
    select 'paid_fees', to_char(decided_at at time zone 'UTC', 'YYYY-MM-DD'), count(*)::float8, sum(fee_minor)::float8
      from disbursements where status = 'paid' and decided_at is not null group by 2
    union all
    select 'borrowers_quarter', to_char(${quarter('created_at')} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI'),
           count(*)::float8, 0
      from users where role = 'borrower' group by 2
    union all
    select 'paid_quarter', to_char(${quarter('decided_at')} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI'),
           count(*)::float8, sum(amount)::float8
      from disbursements where status = 'paid' and decided_at is not null group by 2

    union all
    select 'collected', to_char(received_on, 'YYYY-MM'), count(*)::float8, sum(amount)::float8
      from repayments r where not exists (select 1 from repayment_reversals v where v.repayment_id = r.id)
      group by 2`.execute(db);
  return rows.sort(byKey);
}

/** The dashboard statement before migration 032: every figure aggregated over the whole tables. */
async function fullAggregateSummary(db: Kysely<Database>, tz: string): Promise<DashboardSummary> {
  const { rows } = await sql<Record<string, string | number | null>>`
    with day as (select (date_trunc('day', now() at time zone ${tz}) at time zone ${tz}) as start)
    select
      (select count(*) from users, day where role = 'borrower' and created_at >= day.start) as registered_today,
      (select count(*) from users where role = 'borrower') as registered_total,
      (select min(amount) from applications, day where submitted_at >= day.start) as min_loan_today,
      (select max(amount) from applications, day where submitted_at >= day.start) as max_loan_today,
      (select coalesce(sum(amount), 0) from disbursements, day
         where status = 'paid' and decided_at >= day.start) as disbursed_today,
      (select count(*) from applications where status in (${sqlList(approvedStatuses)})) as approved,
      (select count(*) from applications where status in (${sqlList(awaitingDecisionStatuses)})) as pending,
      (select count(*) from applications where status = 'rejected') as rejected,
      (select round(avg(amount)) from applications) as avg_loan,
      (select count(*) from applications) as total,
      (select count(*) from complaints where status <> 'resolved') as open_complaints,
      (select round(percentile_cont(0.5) within group (order by extract(epoch from resolved_at - created_at)))
         from complaints where status = 'resolved') as median_resolve_seconds`.execute(db);
  const r = rows[0]!;
  const num = (v: string | number | null | undefined) => (v === null || v === undefined ? null : Number(v));
  return {
    registeredToday: Number(r.registered_today),
    registeredTotal: Number(r.registered_total),
    minLoanTodayMinor: num(r.min_loan_today),
    maxLoanTodayMinor: num(r.max_loan_today),
    disbursedTodayMinor: Number(r.disbursed_today),
    approvedLoans: Number(r.approved),
    pendingLoans: Number(r.pending),
    rejectedLoans: Number(r.rejected),
    avgLoanMinor: num(r.avg_loan),
    totalLoans: Number(r.total),
    openComplaints: Number(r.open_complaints),
    medianResolveSeconds: num(r.median_resolve_seconds),
    timeZone: tz,
  };
}

async function expectCurrent() {
  expect(await storedFigures(t.db)).toEqual(await recomputedFigures(t.db));
  // A day no loan is on any more is deleted, not kept as a zero every later read sums (migration 039).
  const { rows } = await sql<{ zeros: number }>`select count(*)::int as zeros from dashboard_figures
    where figure in ('overdue_from', 'next_due', 'paid_fees', 'borrowers_quarter', 'paid_quarter')
      and n = 0 and amount = 0`.execute(t.db);
  expect(rows[0]!.zeros).toBe(0);
  const quarters = await amountQuarters(t.db);
  expect(quarters.stored).toEqual(quarters.recomputed);
  const counts = await queueCounts(t.db);
  expect(counts.stored).toEqual(counts.recomputed);
  expect(counts.zeros).toBe(0);
  expect(await getDashboardSummary(t.deps)).toEqual(await fullAggregateSummary(t.db, t.deps.config.timeZone));
  const odd = { ...t.deps, config: { ...t.deps.config, timeZone: ODD_ZONE } };
  expect(await getDashboardSummary(odd)).toEqual(await fullAggregateSummary(t.db, ODD_ZONE));
}

let references = 0;
const reference = () => `DF-${++references}`;

async function borrower() {
  const b = await t.signUpBorrower();
  return { ...b, agent: await t.loginAs(b.phone, b.password) };
}

async function fileComplaint(agent: Agent, text: string): Promise<string> {
  const body = multipartBody({ category: 'other', text }, []);
  const response = await agent.request('POST', '/api/complaints', {
    raw: body.payload,
    headers: { 'content-type': body.contentType },
  });
  expect(response.status, response.text).toBe(201);
  return response.body.id;
}

describe('dashboard figures kept by the database', () => {
  it('after a set-based bulk insert (the bench seed), bulk updates and a bulk delete', async () => {
    await seedApplications(t.db, 2_500, '$argon2id$not-a-real-hash', () => {});
    await expectCurrent();
    expect((await getDashboardSummary(t.deps)).totalLoans).toBe(2_500);
    // Operator SQL: thousands of rows change status and amount in one statement.
    await sql`update applications set status = case when amount > 15000000 then 'rejected' else 'closed' end,
      amount = amount + 100 where status = 'pending'`.execute(t.db);
    await expectCurrent();
    await sql`update users set role = 'officer' where phone like '%7'`.execute(t.db);
    await expectCurrent();
    // Paid out: running loans get their facts (next due day, the day they become overdue, what they owe),
    // spread over 60 days around today; then the facts move (a repayment, the days passing).
    await sql`update applications set facts_as_of = current_date,
        next_due_on = current_date + (right(loan_number, 2)::int % 60 - 45),
        overdue_from = current_date + (right(loan_number, 2)::int % 60 - 42),
        next_due_minor = amount / 6, outstanding_principal_minor = amount
      where status = 'approved'`.execute(t.db);
    const { rows: withFacts } = await sql<{ n: number }>`
      select count(*)::int as n from applications where facts_as_of is not null`.execute(t.db);
    expect(withFacts[0]!.n).toBeGreaterThan(100);
    await expectCurrent();
    await sql`update applications set next_due_on = next_due_on + 31, overdue_from = overdue_from + 31,
      outstanding_principal_minor = outstanding_principal_minor / 2
      where facts_as_of is not null and loan_number like '%2'`.execute(t.db);
    await expectCurrent();
    // Delete a block of applications (documents point at them without a key; they may stay).
    await sql`delete from applications where loan_number like '%3' or loan_number like '%4'`.execute(t.db);
    await expectCurrent();
    expect((await getDashboardSummary(t.deps)).totalLoans).toBe(2_000);
  });

  it('after sign-ups, submissions, approvals, rejections, holds, closures, a deleted user and complaints, through the app', async () => {
    const [photo, png, webp, signature] = await Promise.all([
      jpegWithGps(),
      pngPhoto(),
      webpPhoto(),
      signaturePng(),
    ]);
    const submitted: string[] = [];
    const borrowers = [];
    for (const amount of ['50000', '120000', '70000']) {
      const b = await borrower();
      borrowers.push(b);
      const quote = await b.agent.post('/api/applications/quote', { amount: Number(amount), termMonths: 12 });
      expect(quote.status, quote.text).toBe(200);
      const { payload, contentType } = multipartBody(
        applicationFields(b.phone, { amount, disclosureSha256: quote.body.disclosureSha256 }),
        [
          { name: 'idFront', filename: 'front.jpg', contentType: 'image/jpeg', data: photo },
          { name: 'idBack', filename: 'back.png', contentType: 'image/png', data: png },
          { name: 'selfie', filename: 'selfie.webp', contentType: 'image/webp', data: webp },
          { name: 'signature', filename: 'signature.png', contentType: 'image/png', data: signature },
        ],
      );
      const response = await b.agent.request('POST', '/api/applications', {
        raw: payload,
        headers: { 'content-type': contentType },
      });
      expect(response.status, response.text).toBe(201);
      submitted.push(response.body.id);
    }
    await expectCurrent();

    const approved = await officer.post(`/api/staff/applications/${submitted[0]}/approve`, {
      creditScore: 600,
    });
    expect(approved.status, approved.text).toBe(200);
    const rejected = await admin.post(`/api/staff/applications/${submitted[1]}/reject`, { reason: 'Income' });
    expect(rejected.status, rejected.text).toBe(200);
    await expectCurrent();

    // A loan paid out, held, released, then repaid in full: closed.
    const held = await borrower();
    const loan = await seedApplication(t.db, {
      borrowerId: held.user.id,
      phone: held.phone,
      status: 'approved',
    });
    await payOutThroughApi(t.db, finance, loan, 10_000_000, reference());
    const hold = await officer.post(`/api/staff/loans/${loan}/status`, {
      action: 'hold',
      message: 'Call us',
      reason: 'Check',
    });
    expect(hold.status, hold.text).toBe(200);
    await expectCurrent();
    const release = await officer.post(`/api/staff/loans/${loan}/status`, {
      action: 'release',
      reason: 'Ok',
    });
    expect(release.status, release.text).toBe(200);
    const repaid = await finance.post(`/api/staff/loans/${loan}/repayments`, {
      amount: '100000.00',
      // The lender's day (Manila), not UTC's: from 16:00 UTC they differ, and the payout was on Manila's.
      receivedOn: today(t.deps),
      channel: 'cash',
      reference: reference(),
    });
    expect(repaid.status, repaid.text).toBe(201);
    expect(await storedStatus(t.db, 'applications', loan)).toBe('closed');
    await expectCurrent();

    // A borrower with no records is deleted; one with records is only deactivated (still counted).
    const { user: unused } = await t.createUser({ role: 'borrower' });
    const removed = await admin.request('DELETE', `/api/admin/users/${unused.id}`);
    expect(removed.status, removed.text).toBe(200);
    expect(removed.body.outcome).toBe('deleted');
    const deactivated = await admin.request('DELETE', `/api/admin/users/${borrowers[2]!.user.id}`);
    expect(deactivated.body.outcome).toBe('deactivated');
    await expectCurrent();

    // Complaints filed, some resolved 1, 4 and 2 days later, one left open.
    const ids: string[] = [];
    for (const n of [1, 2, 3, 4]) ids.push(await fileComplaint(held.agent, `Complaint ${n}`));
    await expectCurrent();
    for (const [i, days] of [1, 4, 2].entries()) {
      clock.days = days;
      const resolved = await admin.post(`/api/staff/complaints/${ids[i]}/resolve`, { note: `After ${days}` });
      expect(resolved.status, resolved.text).toBe(200);
    }
    clock.days = 0;
    await expectCurrent();
    const summary = await getDashboardSummary(t.deps);
    expect(summary.openComplaints).toBeGreaterThanOrEqual(1);
    expect(summary.medianResolveSeconds).not.toBeNull();
  });

  it('TRUNCATE starts the table’s figures from zero', async () => {
    await sql`truncate complaint_replies, complaints`.execute(t.db);
    await expectCurrent();
    const summary = await getDashboardSummary(t.deps);
    expect(summary).toMatchObject({ openComplaints: 0, medianResolveSeconds: null });
  });

  it('200 writers at once lose no update', async () => {
    const people = await Promise.all(
      Array.from({ length: 8 }, async () => (await t.createUser({ role: 'borrower' })).user.id),
    );
    const apps: string[] = [];
    for (const [i, id] of people.entries())
      apps.push(await seedApplication(t.db, { borrowerId: id, amountMinor: 1_000_000 * (i + 1) }));
    const before = await storedFigures(t.db);
    // Each writer moves one of eight applications (so many wait on the same row and re-read it), signs a
    // borrower up or files a complaint; all through the app's pool at once.
    await Promise.all(
      Array.from({ length: 200 }, (_, i) => {
        if (i % 4 === 3)
          return sql`insert into users (phone, password_hash, role, privacy_notice_version)
            values (${`0997${String(i).padStart(7, '0')}`}, '$argon2id$x', 'borrower', 'v1')`.execute(t.db);
        if (i % 8 === 5)
          return sql`insert into complaints (reference, borrower_id, category, text)
            values (${`C-DF-${i}`}, ${people[i % 8]}, 'other', 'At once')`.execute(t.db);
        const status = loanStatuses[i % loanStatuses.length]!;
        return t.db
          .updateTable('applications')
          .set({ status, amount: sql`amount + ${i}` })
          .where('id', '=', apps[i % apps.length]!)
          .execute();
      }),
    );
    expect(await storedFigures(t.db)).not.toEqual(before);
    await expectCurrent();
    if (t.kind === 'postgres') {
      // The writers' backends spread their changes over more than one shard.
      const { rows } = await sql<{ shards: number }>`
        select count(distinct shard)::int as shards from dashboard_figures where figure = 'applications'`.execute(
        t.db,
      );
      expect(rows[0]!.shards).toBeGreaterThan(1);
    }
  });

  it('today starts at midnight in the zone, also where that is not on a quarter hour', async () => {
    const odd = { ...t.deps, config: { ...t.deps.config, timeZone: ODD_ZONE } };
    const before = await getDashboardSummary(odd);
    const midnight = sql`(date_trunc('day', now() at time zone ${ODD_ZONE}) at time zone ${ODD_ZONE})`;
    // Three minutes either side of the zone's midnight: both in the quarter hour that holds it.
    const { user: late } = await t.createUser({ role: 'borrower' });
    const { user: early } = await t.createUser({ role: 'borrower' });
    await sql`update users set created_at = ${midnight} + interval '3 minutes' where id = ${late.id}`.execute(
      t.db,
    );
    await sql`update users set created_at = ${midnight} - interval '3 minutes' where id = ${early.id}`.execute(
      t.db,
    );
    const today = await seedApplication(t.db, { borrowerId: late.id, amountMinor: 123_000_000 });
    const yesterday = await seedApplication(t.db, { borrowerId: early.id, amountMinor: 1_000 });
    await sql`update applications set submitted_at = ${midnight} + interval '3 minutes' where id = ${today}`.execute(
      t.db,
    );
    await sql`update applications set submitted_at = ${midnight} - interval '3 minutes'
      where id = ${yesterday}`.execute(t.db);
    for (const [id, minutes, amount] of [
      [today, 3, 70_000],
      [yesterday, -3, 9_000],
    ] as const)
      await sql`insert into disbursements (application_id, amount, bank_name, account_number, code_verified,
          status, decided_at, reference)
        values (${id}, ${amount}, 'GCash', '09171234567', true, 'paid', ${midnight} + ${minutes} * interval '1 minute',
          ${`DF-ODD-${minutes}`})`.execute(t.db);
    const after = await getDashboardSummary(odd);
    expect(after).toEqual(await fullAggregateSummary(t.db, ODD_ZONE));
    // Today's side only.
    expect(after.registeredToday - before.registeredToday).toBe(1);
    expect(after.disbursedTodayMinor - before.disbursedTodayMinor).toBe(70_000);
    expect(after.maxLoanTodayMinor).toBe(123_000_000);
    expect(after.minLoanTodayMinor).not.toBe(1_000);
    await expectCurrent();
  });

  it('writers at once in one quarter hour keep its smallest and largest amount', async () => {
    const people = await Promise.all(
      Array.from({ length: 20 }, async () => (await t.createUser({ role: 'borrower' })).user.id),
    );
    const apps: string[] = [];
    for (const id of people)
      apps.push(await seedApplication(t.db, { borrowerId: id, amountMinor: 1_000_000 }));
    // All in one quarter hour (an hour ago: no other test's rows), each moved by its own statement.
    await sql`update applications set submitted_at = ${quarter("now() - interval '1 hour'")} + interval '7 minutes'
      where id in (${sqlList(apps)})`.execute(t.db);
    for (let round = 1; round <= 5; round++) {
      // Every writer sets a new amount on its own application at once; the quarter's extremes are whichever
      // writers' amounts end up smallest and largest, so a writer reading the others' amounts before they
      // commit (and writing that reading after them) leaves a wrong one.
      await Promise.all(
        apps.map((id, k) =>
          t.db
            .updateTable('applications')
            .set({ amount: 100_000 * (round * 40 + (round % 2 === 0 ? k : 20 - k)) })
            .where('id', '=', id)
            .execute(),
        ),
      );
      const quarters = await amountQuarters(t.db);
      expect(quarters.stored).toEqual(quarters.recomputed);
    }
  });

  it('a property: any sequence of inserts, updates and deletes leaves the figures equal to the full aggregate', async () => {
    const staff = adminId;
    const statusArb = fc.constantFrom(...loanStatuses);
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('apply' as const),
        status: statusArb,
        amount: fc.integer({ min: 100_000, max: 90_000_000 }),
      }),
      fc.record({
        kind: fc.constant('restatus' as const),
        from: statusArb,
        to: statusArb,
        delta: fc.integer({ min: -500, max: 500 }),
      }),
      fc.record({ kind: fc.constant('drop' as const), status: statusArb }),
      fc.record({ kind: fc.constant('signup' as const), count: fc.integer({ min: 1, max: 4 }) }),
      fc.record({ kind: fc.constant('promote' as const) }),
      fc.record({ kind: fc.constant('complain' as const), count: fc.integer({ min: 1, max: 3 }) }),
      fc.record({
        kind: fc.constant('resolve' as const),
        // Up to ~40 days, in seconds: around and across hour buckets.
        seconds: fc.array(fc.integer({ min: 0, max: 3_500_000 }), { minLength: 1, maxLength: 4 }),
      }),
      fc.record({ kind: fc.constant('reopen' as const) }),
      fc.record({ kind: fc.constant('forget' as const) }),
      fc.record({
        kind: fc.constant('reschedule' as const),
        days: fc.integer({ min: -40, max: 40 }),
        paid: fc.integer({ min: 0, max: 2_000_000 }),
      }),
      // Rows moved to minutes around today's midnight (here or in the odd zone) or now: across quarter
      // hours and across the start of the day, where a quarter holds yesterday's rows and today's.
      fc.record({
        kind: fc.constant('retime' as const),
        table: fc.constantFrom('applications', 'users', 'disbursements'),
        anchor: fc.constantFrom('midnight', 'odd midnight', 'now'),
        minutes: fc.integer({ min: -20, max: 20 }),
      }),
      fc.record({
        kind: fc.constant('payout' as const),
        anchor: fc.constantFrom('midnight', 'odd midnight', 'now'),
        minutes: fc.integer({ min: -20, max: 20 }),
        amount: fc.integer({ min: 100_000, max: 9_000_000 }),
      }),
      // Payouts asked for (migration 047 counts them per hour of the request and status), then paid or
      // failed, or asked for at another time.
      fc.record({
        kind: fc.constant('request' as const),
        minutes: fc.integer({ min: -200, max: 200 }),
        status: fc.constantFrom('requested', 'paid', 'failed'),
      }),
      fc.record({ kind: fc.constant('settle' as const), to: fc.constantFrom('paid', 'failed') }),
      fc.record({ kind: fc.constant('rerequest' as const), minutes: fc.integer({ min: -200, max: 200 }) }),
    );
    const at = (anchor: 'midnight' | 'odd midnight' | 'now', minutes: number) => {
      const zone = anchor === 'odd midnight' ? ODD_ZONE : t.deps.config.timeZone;
      const base =
        anchor === 'now'
          ? sql`now()`
          : sql`(date_trunc('day', now() at time zone ${zone}) at time zone ${zone})`;
      return sql`${base} + ${minutes} * interval '1 minute'`;
    };
    let counter = 0;
    /** A new borrower (one open application each). */
    const someBorrower = async () => {
      const { rows } = await sql<{ id: string }>`
        insert into users (phone, password_hash, role, privacy_notice_version)
        values (${`0998${String(++counter).padStart(7, '0')}`}, '$argon2id$x', 'borrower', 'v1') returning id`.execute(
        t.db,
      );
      return rows[0]!.id;
    };
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 8 }), async (ops) => {
        for (const o of ops) {
          counter += 1;
          switch (o.kind) {
            case 'apply':
              await seedApplication(t.db, {
                borrowerId: await someBorrower(),
                status: o.status,
                amountMinor: o.amount,
              });
              break;
            case 'restatus':
              await sql`update applications set status = ${o.to}, amount = greatest(1, amount + ${o.delta})
                where id in (select id from applications where status = ${o.from} order by random() limit 3)`.execute(
                t.db,
              );
              break;
            case 'drop':
              // Only rows seeded here or by seedApplication, which nothing else points at.
              await sql`delete from applications where id in (
                  select id from applications a where status = ${o.status} and id_number = 'ID-1'
                    and not exists (select 1 from disbursements d where d.application_id = a.id)
                  order by random() limit 2)`.execute(t.db);
              break;
            case 'signup':
              await sql`insert into users (phone, password_hash, role, privacy_notice_version)
                select '0999' || lpad((${counter} * 10 + g)::text, 7, '0'), '$argon2id$x', 'borrower', 'v1'
                from generate_series(1, ${o.count}::int) g`.execute(t.db);
              break;
            case 'promote':
              await sql`update users set role = case when role = 'borrower' then 'finance' else 'borrower' end
                where id = (select id from users where phone like '0999%' order by random() limit 1)`.execute(
                t.db,
              );
              break;
            case 'complain':
              await sql`insert into complaints (reference, borrower_id, category, text)
                select 'C-P-' || ${counter} || '-' || g, ${await someBorrower()}, 'other', 'x'
                from generate_series(1, ${o.count}::int) g`.execute(t.db);
              break;
            case 'resolve':
              for (const seconds of o.seconds)
                await sql`update complaints set status = 'resolved', resolved_by = ${staff}, resolution_note = 'n',
                  resolved_at = created_at + ${seconds} * interval '1 second'
                  where id = (select id from complaints where status <> 'resolved' order by random() limit 1)`.execute(
                  t.db,
                );
              break;
            case 'reopen':
              await sql`update complaints set status = 'in_progress', resolved_by = null, resolution_note = null,
                resolved_at = null
                where id = (select id from complaints where status = 'resolved' order by random() limit 1)`.execute(
                t.db,
              );
              break;
            case 'reschedule':
              // A running loan's facts move: its next due day, the day it becomes overdue, what it owes.
              await sql`update applications set next_due_on = next_due_on + ${o.days}::int,
                  overdue_from = overdue_from + ${o.days}::int,
                  outstanding_principal_minor = greatest(0, outstanding_principal_minor - ${o.paid})
                where id in (select id from applications where facts_as_of is not null
                  order by random() limit 2)`.execute(t.db);
              break;
            case 'retime': {
              const column = {
                applications: 'submitted_at',
                users: 'created_at',
                disbursements: 'decided_at',
              }[o.table];
              const rows = o.table === 'disbursements' ? sql`status = 'paid'` : sql`true`;
              await sql`update ${sql.table(o.table)} set ${sql.ref(column)} = ${at(o.anchor, o.minutes)}
                where id in (select id from ${sql.table(o.table)} where ${rows} order by random() limit 2)`.execute(
                t.db,
              );
              break;
            }
            case 'payout':
              await sql`insert into disbursements (application_id, amount, bank_name, account_number,
                  code_verified, status, decided_at, reference)
                select id, ${o.amount}, 'GCash', '09171234567', true, 'paid', ${at(o.anchor, o.minutes)},
                  ${`DF-P-${counter}`}
                from applications order by random() limit 1`.execute(t.db);
              break;
            case 'request':
              await sql`insert into disbursements (application_id, amount, bank_name, account_number,
                  code_verified, status, requested_at, decided_at, reference, failure_reason)
                select id, 100000, 'GCash', '09171234567', true, ${o.status},
                  now() + ${o.minutes} * interval '1 minute',
                  case when ${o.status} <> 'requested' then now() end,
                  case when ${o.status} = 'paid' then ${`DF-R-${counter}`} end,
                  case when ${o.status} = 'failed' then 'bounced' end
                from applications order by random() limit 1`.execute(t.db);
              break;
            case 'settle':
              await sql`update disbursements set status = ${o.to}, decided_at = now(),
                  reference = case when ${o.to} = 'paid' then 'DF-S-' || id end,
                  failure_reason = case when ${o.to} = 'failed' then 'bounced' end
                where id in (select id from disbursements where status = 'requested' order by random() limit 2)`.execute(
                t.db,
              );
              break;
            case 'rerequest':
              await sql`update disbursements set requested_at = requested_at + ${o.minutes} * interval '1 minute'
                where id in (select id from disbursements order by random() limit 2)`.execute(t.db);
              break;
            case 'forget':
              await sql`delete from complaints
                where id = (select id from complaints order by random() limit 1)`.execute(t.db);
              break;
          }
        }
        await expectCurrent();
      }),
      { numRuns: 25 },
    );
  });
});
