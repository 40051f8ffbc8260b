import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type DisbursementStatus, disbursementStatuses } from '../../domain/loan/disbursement-status';
import { awaitingDecisionStatuses, runningStatuses } from '../../domain/loan/status';
import { type OverdueBucket, overdueBuckets } from '../../domain/schemas/portfolio';
import { PAGE_SIZE } from '../../domain/schemas/staff';
import { listOverduePage, overduePositions } from '../features/collections/list-overdue-loans';
import { listDisbursements } from '../features/disbursements/list-disbursements';
import { listLoans } from '../features/servicing/list-loans';
import { listApplications } from '../features/staff-applications/list-applications';
import { seedListApplications } from '../test-support/list-pages';
import { createTestApp, type TestApp } from '../test-support/test-app';
import { today as todayOf } from './clock';
import { applicationList, payoutPositions, queuePositions, searchedListPage, toPage } from './paging';
import { sqlList } from './sql-lists';

/**
 * An unsearched page of Pending, Approved and Loan Servicing starts from the hour counts of migration 046
 * (docs/decisions/069) instead of walking every row before it. Every page must be exactly the page the walk
 * gives (newest first, the id breaking ties), with the queue's exact total, whatever the hours hold: rows
 * on an hour's first instant, many rows sharing one instant across a page's edge, running loans without a
 * decision time (first in the list), pages past the end, and after any writes.
 */
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp();
  // 3,000 applications over 960 hours, every hour's rows on one instant, 60 pending on one instant on an
  // hour's first microsecond; and 60 running on one instant too, ties broken by id only.
  await seedListApplications(t.db);
  await sql`update applications set decided_at = date_trunc('hour', now()) - interval '7 hours'
    where id in (select id from applications where status = 'approved' order by loan_number limit 60)`.execute(
    t.db,
  );
});
afterAll(() => t.close());

type Queue = 'pending' | 'approved' | 'servicing';

/** The page as the walk reads it: the queue's rows in list order, offset and limited. */
async function walked(queue: Queue, page: number) {
  const [statuses, column] =
    queue === 'pending' ? [awaitingDecisionStatuses, 'submitted_at'] : [runningStatuses, 'decided_at'];
  const { rows } = await sql<{ id: string }>`
    select id from applications where status in (${sqlList(statuses)})
    order by ${sql.ref(column)} desc, id desc offset ${(page - 1) * PAGE_SIZE} limit ${PAGE_SIZE}`.execute(
    t.db,
  );
  const { rows: counts } = await sql<{ n: number }>`
    select count(*)::int as n from applications where status in (${sqlList(statuses)})`.execute(t.db);
  return { ids: rows.map((r) => r.id), total: counts[0]!.n };
}

/**
 * How a page is read: as the app does (walked below 2,000 rows deep, the newest 2,000 hour rows summed
 * deeper), from the hours from the first page on, or from the hours with only a few hour rows read (a deep
 * page past them walks from the oldest read).
 */
type Reading = 'app' | { walkBelow: number; hourRows?: number };
const readings: Reading[] = [
  'app',
  { walkBelow: 0 },
  { walkBelow: 0, hourRows: 7 },
  { walkBelow: 30, hourRows: 1 },
];

async function listed(queue: Queue, page: number, reading: Reading) {
  const query = { page, name: '', phone: '' };
  if (reading === 'app')
    return queue === 'servicing'
      ? await listLoans(t.deps, query)
      : await listApplications(t.deps, queue, query);
  const [statuses, column] =
    queue === 'pending'
      ? [awaitingDecisionStatuses, 'submitted_at' as const]
      : [runningStatuses, 'decided_at' as const];
  const list = await applicationList(t.db, statuses, column, query);
  expect(list.positions).toBeDefined();
  const positions = { ...queuePositions(statuses, column, reading.hourRows)!, walkBelow: reading.walkBelow };
  const { rows, counted } = await searchedListPage(t.db, { ...list, positions }, (keys) =>
    keys.select('page.id'),
  );
  return toPage(
    rows.map((r) => ({ id: r.id as string })),
    counted,
    page,
  );
}

async function expectSamePage(queue: Queue, page: number, reading: Reading = 'app') {
  const answer = await listed(queue, page, reading);
  const walk = await walked(queue, page);
  expect(
    answer.items.map((item) => item.id),
    `${queue} page ${page} ${JSON.stringify(reading)}`,
  ).toEqual(walk.ids);
  // The exact total, never "1,000+": the walk would have stopped counting at 1,000 past the page.
  expect(answer).toMatchObject({ total: walk.total, totalCapped: false });
  expect(answer.pageCount).toBe(Math.max(1, Math.ceil(walk.total / PAGE_SIZE)));
}

const queues: Queue[] = ['pending', 'approved', 'servicing'];

/**
 * Running loans given facts: due dates over ~200 days around today, grace 0, 3 or 7 days (of every due
 * date), so some loans past their due date are not overdue yet, becoming so tomorrow or later.
 */
async function giveFacts() {
  // The lender's today, not the database's (UTC): from 16:00 UTC Manila is a day ahead.
  const today = sql`${todayOf(t.deps)}::date`;
  await sql`update applications set facts_as_of = ${today},
      next_due_on = ${today} - (right(loan_number, 3)::int % 200 - 20),
      overdue_from = ${today} - (right(loan_number, 3)::int % 200 - 20)
        + (array[0, 3, 7])[1 + (right(loan_number, 3)::int / 200) % 3],
      next_due_minor = 100000
    where status in ('approved', 'on_hold')`.execute(t.db);
}

/** The overdue page as the walk reads it on `today`, and the queue's total. */
async function walkedOverdue(page: number, bucket?: OverdueBucket) {
  const today = todayOf(t.deps);
  const range = bucket
    ? {
        '1-30': sql`next_due_on between ${today}::date - 30 and ${today}::date - 1`,
        '31-60': sql`next_due_on between ${today}::date - 60 and ${today}::date - 31`,
        '61-90': sql`next_due_on between ${today}::date - 90 and ${today}::date - 61`,
        '90+': sql`next_due_on <= ${today}::date - 91`,
      }[bucket]
    : sql`true`;
  const queued = sql`status in ('approved', 'on_hold') and next_due_on is not null
    and next_due_on < ${today}::date and overdue_from <= ${today}::date and ${range}`;
  const { rows } = await sql<{ id: string }>`select id from applications where ${queued}
    order by next_due_on, loan_number offset ${(page - 1) * PAGE_SIZE} limit ${PAGE_SIZE}`.execute(t.db);
  const { rows: counts } = await sql<{ n: number }>`
    select count(*)::int as n from applications where ${queued}`.execute(t.db);
  return { ids: rows.map((r) => r.id), total: counts[0]!.n };
}

async function expectSameOverduePage(page: number, bucket?: OverdueBucket, reading: Reading = 'app') {
  const query = { page, name: '', phone: '', q: '', ...(bucket ? { bucket } : {}) };
  const answer =
    reading === 'app'
      ? await listOverduePage(t.deps, query)
      : await listOverduePage(t.deps, query, {
          ...overduePositions(todayOf(t.deps), bucket, reading.hourRows),
          walkBelow: reading.walkBelow,
        });
  const walk = await walkedOverdue(page, bucket);
  expect(
    answer.items.map((item) => item.id),
    `overdue ${bucket} page ${page} ${JSON.stringify(reading)}`,
  ).toEqual(walk.ids);
  expect(answer).toMatchObject({ total: walk.total, totalCapped: false });
}

describe('unsearched queue pages from the hour counts', () => {
  it('every page equals the walk, with the exact total', async () => {
    const { total } = await walked('pending', 1);
    expect(total).toBeGreaterThan(1_000 + PAGE_SIZE);
    for (const queue of queues) {
      const last = Math.ceil((await walked(queue, 1)).total / PAGE_SIZE);
      for (const reading of readings)
        for (let page = 1; page <= last + 2; page++) await expectSamePage(queue, page, reading);
    }
  });

  it('every overdue page, in every bucket, equals the walk, with the exact total', async () => {
    await giveFacts();
    const { total } = await walkedOverdue(1);
    expect(total).toBeGreaterThan(300);
    const today = todayOf(t.deps);
    const { rows } = await sql<{ n: number }>`select count(*)::int as n from applications
      where status in ('approved', 'on_hold') and next_due_on < ${today}::date
        and overdue_from = ${today}::date + 1`.execute(t.db);
    expect(rows[0]!.n, 'loans past due that become overdue tomorrow').toBeGreaterThan(0);
    for (const bucket of [undefined, ...overdueBuckets])
      for (const reading of readings) {
        const last = Math.ceil((await walkedOverdue(1, bucket)).total / PAGE_SIZE);
        for (let page = 1; page <= last + 2; page++) await expectSameOverduePage(page, bucket, reading);
      }
  });

  it('running loans without a decision time come first, and pages among them are still right', async () => {
    await sql`update applications set decided_at = null
      where id in (select id from applications where status = 'on_hold' or status = 'approved'
                   order by loan_number desc limit 25)`.execute(t.db);
    for (const queue of ['approved', 'servicing'] as const)
      for (const reading of readings)
        for (const page of [1, 2, 3, 4, 5, 50, 100]) await expectSamePage(queue, page, reading);
  });

  it('a property: after any writes every page is still the walk’s', async () => {
    const op = fc.oneof(
      fc.record({
        kind: fc.constant('status' as const),
        to: fc.constantFrom('pending', 'approved', 'on_hold', 'rejected', 'closed'),
        count: fc.integer({ min: 1, max: 40 }),
      }),
      fc.record({
        kind: fc.constant('retime' as const),
        column: fc.constantFrom('submitted_at', 'decided_at'),
        // Within a few hours of another row's instant, on it, or on an hour's first microsecond.
        hours: fc.integer({ min: 0, max: 30 }),
        exact: fc.boolean(),
        count: fc.integer({ min: 1, max: 40 }),
      }),
      fc.record({ kind: fc.constant('undecide' as const) }),
      // A loan's facts move (a repayment, a refresh): its due date and the day it becomes overdue.
      fc.record({
        kind: fc.constant('facts' as const),
        days: fc.integer({ min: -40, max: 40 }),
        grace: fc.integer({ min: 0, max: 5 }),
        count: fc.integer({ min: 1, max: 40 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(op, { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 130 }), { minLength: 3, maxLength: 6 }),
        async (ops, pages) => {
          for (const o of ops) {
            if (o.kind === 'status')
              await sql`update applications set status = ${o.to},
                  decided_at = coalesce(decided_at, now())
                where id in (select id from applications order by random() limit ${o.count})`.execute(t.db);
            else if (o.kind === 'retime')
              await sql`update applications set ${sql.ref(o.column)} =
                  ${o.exact ? sql`date_trunc('hour', now())` : sql`now()`} - ${o.hours} * interval '1 hour'
                where id in (select id from applications order by random() limit ${o.count})`.execute(t.db);
            else if (o.kind === 'facts')
              await sql`update applications set facts_as_of = current_date,
                  next_due_on = current_date + ${o.days}::int, overdue_from = current_date + ${o.days + o.grace}::int,
                  next_due_minor = 100000
                where id in (select id from applications order by random() limit ${o.count})`.execute(t.db);
            else
              await sql`update applications set decided_at = null
                where id in (select id from applications where status in ('approved', 'on_hold')
                             order by random() limit 3)`.execute(t.db);
          }
          for (const queue of queues)
            for (const reading of readings)
              for (const page of pages) await expectSamePage(queue, page, reading);
          for (const reading of readings)
            for (const page of pages) await expectSameOverduePage(Math.ceil(page / 3), undefined, reading);
        },
      ),
      { numRuns: 12 },
    );
  });
});

/** The payouts' page as the walk reads it (newest request first, one status or all), and their total. */
async function walkedPayouts(page: number, status?: DisbursementStatus) {
  const which = status ? sql`status = ${status}` : sql`true`;
  const { rows } = await sql<{ id: string }>`select id from disbursements where ${which}
    order by requested_at desc, id desc offset ${(page - 1) * PAGE_SIZE} limit ${PAGE_SIZE}`.execute(t.db);
  const { rows: counts } = await sql<{ n: number }>`
    select count(*)::int as n from disbursements where ${which}`.execute(t.db);
  return { ids: rows.map((r) => r.id), total: counts[0]!.n };
}

async function expectSamePayoutPage(page: number, status?: DisbursementStatus, reading: Reading = 'app') {
  const query = { page, name: '', phone: '', status };
  const answer =
    reading === 'app'
      ? await listDisbursements(t.deps, query)
      : await listDisbursements(t.deps, query, {
          ...payoutPositions(status, reading.hourRows),
          walkBelow: reading.walkBelow,
        });
  const walk = await walkedPayouts(page, status);
  expect(
    answer.items.map((item) => item.id),
    `payouts ${status} page ${page} ${JSON.stringify(reading)}`,
  ).toEqual(walk.ids);
  expect(answer).toMatchObject({ total: walk.total, totalCapped: false });
}

describe('unsearched payout pages from the hour counts', () => {
  it('every page, all payouts and each status, equals the walk, with the exact total', async () => {
    // Payouts in every status, 40 of them asked for on one instant at an hour's first microsecond.
    await sql`insert into disbursements (application_id, amount, bank_name, account_number, code_verified,
        status, requested_at, decided_at, reference, failure_reason)
      select id, 100000, 'GCash', '09171234567', true, s.status,
             date_trunc('hour', now()) - (case when n <= 40 then 3 else n % 500 end) * interval '1 hour',
             case when s.status <> 'requested' then now() end,
             case when s.status = 'paid' then 'REF-' || n end,
             case when s.status = 'failed' then 'bounced' end
      from (select id, row_number() over (order by loan_number) as n from applications
            where status in ('approved', 'on_hold') limit 300) a,
      lateral (select (array['requested', 'paid', 'failed'])[1 + n % 3] as status) s`.execute(t.db);
    for (const status of [undefined, ...disbursementStatuses]) {
      const { total } = await walkedPayouts(1, status);
      expect(total, String(status)).toBeGreaterThan(30);
      const last = Math.ceil(total / PAGE_SIZE);
      for (const reading of readings) {
        for (let page = 1; page <= last + 1; page++) await expectSamePayoutPage(page, status, reading);
      }
    }
  });
});
