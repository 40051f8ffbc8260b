import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { todayIn } from '../../../domain/date-text';
import { addMonthsClamped, daysBetween } from '../../../domain/loan/calendar';
import { deriveLoanPosition } from '../../../domain/loan/repayments';
import type { OverdueBucket } from '../../../domain/schemas/portfolio';
import { loadLoanRecords } from '../../loans/loan-position';
import { loanNumberOf, payOutThroughApi, seedApplication } from '../../test-support/seed';
import { type Agent, createTestApp, shiftedClock, type TestApp } from '../../test-support/test-app';

/**
 * The overdue queue (issue #10): running loans overdue (past a due date and the loan's grace days), found by
 * SQL from the stored facts, most days past due first. Every loan is paid out today (real time); the clock
 * then moves to five days after the fourth due date, and repayments dated on earlier due dates leave each
 * loan owing from a different one. The loans are signed with 10 grace days, so a loan five days past due is
 * due but not overdue (issue #31: one meaning of overdue), whatever the server's setting says (0 here).
 */
const clock = shiftedClock();
const GRACE = 10;
let t: TestApp;
let finance: Agent;
let officer: Agent;
let payDay: string;
const due = (k: number) => addMonthsClamped(payDay, k);
const today = () => todayIn('Asia/Manila', clock.now());
let references = 0;
const ref = () => `OVD-${++references}`;

interface Loan {
  id: string;
  loanNumber: string;
  fullName: string;
  phone: string;
}
const loans: Record<string, Loan> = {};

async function paidOutLoan(name: string, fullName: string): Promise<Loan> {
  const b = await t.createUser({ role: 'borrower' });
  const phone = b.user.phone!;
  const id = await seedApplication(t.db, {
    borrowerId: b.user.id,
    phone,
    fullName,
    status: 'approved',
    terms: { graceDays: GRACE },
  });
  await payOutThroughApi(t.db, finance, id, 10_000_000, ref());
  const loanNumber = await loanNumberOf(t.db, id);
  loans[name] = { id, loanNumber, fullName, phone };
  return loans[name]!;
}

/** Pays instalments 1…k, each on its due date (₱9,455.96: the level payment of ₱100,000 over 12 at 2 %). */
async function payInstalments(loan: Loan, k: number) {
  for (let i = 1; i <= k; i++) {
    const response = await finance.post(`/api/staff/loans/${loan.id}/repayments`, {
      amount: '9455.96',
      receivedOn: due(i),
      channel: 'cash',
      reference: ref(),
    });
    expect(response.status, response.text).toBe(201);
  }
}

const bucketOf = (days: number): OverdueBucket =>
  days <= 30 ? '1-30' : days <= 60 ? '31-60' : days <= 90 ? '61-90' : '90+';

beforeAll(async () => {
  t = await createTestApp({
    clock,
    // The loans' own grace days count, not the setting (issue #31).
    config: { repaymentRules: { graceDays: 0, lateChargeMonthlyBp: 0 } },
  });
  finance = await t.signInStaff('finance');
  officer = await t.signInStaff('officer');
  payDay = today();
  // Owing from instalment 1, 2, 3, 4, 5 (not yet due), paid off, on hold.
  await paidOutLoan('unpaid', 'Ana Unpaid');
  await paidOutLoan('paid1', 'Ben Paid One');
  await paidOutLoan('paid2', 'Cora Paid Two');
  await paidOutLoan('paid3', 'Dan Paid Three');
  await paidOutLoan('paid4', 'Eve Paid Four');
  await paidOutLoan('closed', 'Fay Paid Off');
  await paidOutLoan('held', 'Gus On Hold');
  // Ten more owing from instalment 1, for paging (same days past due: ordered by loan number).
  for (let i = 0; i < 10; i++) await paidOutLoan(`many${i}`, `Many Unpaid ${i}`);
  await t.db
    .updateTable('applications')
    .set({ status: 'on_hold' })
    .where('id', '=', loans.held!.id)
    .execute();

  clock.days = daysBetween(payDay, due(4)) + 5;
  await payInstalments(loans.paid1!, 1);
  await payInstalments(loans.paid2!, 2);
  await payInstalments(loans.paid3!, 3);
  await payInstalments(loans.paid4!, 4);
  const payoff = await finance.post(`/api/staff/loans/${loans.closed!.id}/repayments`, {
    amount: '100000',
    receivedOn: payDay,
    channel: 'cash',
    reference: ref(),
  });
  expect(payoff.body.loanStatus).toBe('closed');
});
afterAll(() => t.close());

type Item = { id: string; loanNumber: string; daysPastDue: number } & Record<string, unknown>;
const overdue = async (query = '') => {
  const response = await officer.get(`/api/staff/overdue${query}`);
  expect(response.status, response.text).toBe(200);
  return response.body as {
    items: Item[];
    total: number;
    page: number;
    pageSize: number;
    pageCount: number;
    buckets: Record<OverdueBucket, number>;
    bucketsCapped: Record<OverdueBucket, boolean>;
    totalCapped: boolean;
  };
};

/** Every item, page by page. */
async function allItems(query = '') {
  const first = await overdue(`?page=1${query}`);
  const items = [...first.items];
  for (let page = 2; page <= first.pageCount; page++)
    items.push(...(await overdue(`?page=${page}${query}`)).items);
  return items;
}

/** What a full replay of each loan says today, for the loans the queue should hold. */
async function expectedQueue() {
  const rows = await t.db
    .selectFrom('applications')
    .select(['id', 'loan_number', 'status', 'term_months', 'terms'])
    .where(
      'id',
      'in',
      Object.values(loans).map((l) => l.id),
    )
    .execute();
  const expected = [];
  for (const row of rows) {
    if (row.status !== 'approved' && row.status !== 'on_hold') continue;
    const { records } = await loadLoanRecords(t.db, row, 'Asia/Manila');
    const p = deriveLoanPosition(records, today());
    const oldest = p.schedule.find((i) => i.unpaidMinor > 0);
    if (oldest?.status !== 'overdue') continue;
    expect(oldest.daysPastDue).toBeGreaterThan(GRACE);
    expected.push({
      id: row.id,
      loanNumber: row.loan_number,
      overdueSince: oldest.dueDate,
      daysPastDue: oldest.daysPastDue,
      overdueMinor: p.principalDueMinor + p.interestDueMinor,
      outstandingPrincipalMinor: p.outstandingPrincipalMinor,
      nextDueDate: p.schedule.find((i) => !i.fixed && i.unpaidMinor > 0)?.dueDate ?? null,
    });
  }
  return expected.sort((a, b) =>
    a.daysPastDue !== b.daysPastDue ? b.daysPastDue - a.daysPastDue : a.loanNumber < b.loanNumber ? -1 : 1,
  );
}

describe('overdue queue', () => {
  it('lists running loans overdue by their own grace days, most days past due first, with the replay’s figures', async () => {
    const page = await overdue();
    expect(page).toMatchObject({ page: 1, pageSize: 10, total: 14, pageCount: 2 });
    const items = await allItems();
    expect(items).toHaveLength(14);
    expect(items.map(({ fullName: _, phone: __, status: ___, ...rest }) => rest)).toEqual(
      await expectedQueue(),
    );

    const byId = new Map(items.map((i) => [i.id, i]));
    // Paid 4 (next due in the future) and the paid-off loan are not in the queue; the loan on hold is.
    expect(byId.has(loans.paid4!.id)).toBe(false);
    expect(byId.has(loans.closed!.id)).toBe(false);
    expect(byId.get(loans.held!.id)).toMatchObject({ status: 'on_hold', overdueSince: due(1) });
    // Five days past its due date, within its 10 grace days: due, not overdue, as its loan page says.
    expect(byId.has(loans.paid3!.id)).toBe(false);
    const ledger = await finance.get(`/api/staff/loans/${loans.paid3!.id}/ledger`);
    expect(ledger.body.position.schedule[3]).toMatchObject({ status: 'due', daysPastDue: 5 });
    expect(ledger.body.position.overdueMinor).toBe(0);
    expect(byId.get(loans.paid2!.id)).toMatchObject({
      overdueSince: due(3),
      daysPastDue: daysBetween(due(3), today()),
    });
    expect(byId.get(loans.unpaid!.id)).toMatchObject({
      overdueSince: due(1),
      outstandingPrincipalMinor: 10_000_000,
      overdueMinor: 4 * 945_596,
    });
    // Most days past due first; equal days by loan number.
    const days = items.map((i) => i.daysPastDue);
    expect(days).toEqual([...days].sort((a, b) => b - a));
    const unpaidNumbers = items.filter((i) => i.overdueSince === due(1)).map((i) => i.loanNumber);
    expect(unpaidNumbers).toEqual([...unpaidNumbers].sort());
    expect(unpaidNumbers).toHaveLength(12);
  });

  it('counts each days-past-due bucket over the whole book and filters by one', async () => {
    const items = await allItems();
    const counts = { '1-30': 0, '31-60': 0, '61-90': 0, '90+': 0 };
    for (const item of items) counts[bucketOf(item.daysPastDue)] += 1;
    const page = await overdue();
    expect(page.buckets).toEqual(counts);
    expect(page.bucketsCapped).toEqual({ '1-30': false, '31-60': false, '61-90': false, '90+': false });
    // Five days past the fourth due date, each loan sits in its own bucket.
    expect(bucketOf(daysBetween(due(4), today()))).toBe('1-30');
    expect(bucketOf(daysBetween(due(3), today()))).toBe('31-60');
    expect(bucketOf(daysBetween(due(2), today()))).toBe('61-90');
    expect(bucketOf(daysBetween(due(1), today()))).toBe('90+');
    expect(counts).toEqual({ '1-30': 0, '31-60': 1, '61-90': 1, '90+': 12 });

    for (const bucket of ['1-30', '31-60', '61-90', '90+'] as const) {
      const filtered = await allItems(`&bucket=${encodeURIComponent(bucket)}`);
      expect(filtered.map((i) => i.id)).toEqual(
        items.filter((i) => bucketOf(i.daysPastDue) === bucket).map((i) => i.id),
      );
      // The bucket counts ignore the filter.
      expect((await overdue(`?bucket=${encodeURIComponent(bucket)}`)).buckets).toEqual(counts);
    }
    const wrong = await officer.get('/api/staff/overdue?bucket=1-31');
    expect(wrong.status).toBe(400);
    expect(wrong.body.error.fields.bucket.code).toBe('VALIDATION_FAILED');
  });

  it('searches by name, phone and loan number (contains), and pages ten at a time', async () => {
    const byName = await overdue('?name=paid%20two');
    expect(byName.items.map((i) => i.id)).toEqual([loans.paid2!.id]);
    expect(byName.total).toBe(1);
    expect(byName.buckets['90+']).toBe(12); // still the whole book

    // A name many overdue loans share (found from the names, migration 042): the same loans, in the queue's
    // order and pages, as the whole queue filtered by it; with a bucket too.
    const queue = await allItems();
    for (const [name, bucket] of [
      ['PAID', ''],
      ['aid', '&bucket=90%2B'],
    ] as const) {
      const found = await allItems(`&name=${encodeURIComponent(name)}${bucket}`);
      const expected = queue.filter(
        (i) =>
          String(i.fullName).toLowerCase().includes(name.toLowerCase()) &&
          (!bucket || bucketOf(i.daysPastDue) === '90+'),
      );
      expect(expected.length, name).toBeGreaterThan(1);
      expect(
        found.map((i) => i.id),
        name,
      ).toEqual(expected.map((i) => i.id));
    }

    const byPhone = await overdue(`?phone=${loans.paid1!.phone.slice(-5)}`);
    expect(byPhone.items.map((i) => i.id)).toEqual([loans.paid1!.id]);

    const digits = loans.held!.loanNumber.slice(-4);
    const byNumber = await overdue(`?q=${digits}`);
    expect(byNumber.items.map((i) => i.id)).toContain(loans.held!.id);
    expect(byNumber.items.every((i) => i.loanNumber.includes(digits))).toBe(true);
    expect((await overdue(`?q=${loans.held!.loanNumber.toLowerCase()}`)).items.map((i) => i.id)).toEqual([
      loans.held!.id,
    ]);
    // A paid-up loan is not found by its number either.
    expect((await overdue(`?q=${loans.paid4!.loanNumber}`)).total).toBe(0);

    const first = await overdue('?page=1');
    const second = await overdue('?page=2');
    expect(first.items).toHaveLength(10);
    expect(second.items).toHaveLength(4);
    expect(new Set([...first.items, ...second.items].map((i) => i.id)).size).toBe(14);
    expect((await overdue('?page=3')).items).toEqual([]);
  });

  it('a loan leaves the queue once what was due is paid, and days passing move the others on', async () => {
    const response = await finance.post(`/api/staff/loans/${loans.paid3!.id}/repayments`, {
      amount: '9455.96',
      receivedOn: today(),
      channel: 'cash',
      reference: ref(),
    });
    expect(response.status, response.text).toBe(201);
    let items = await allItems();
    expect(items.map((i) => i.id)).not.toContain(loans.paid3!.id);
    expect((await overdue()).buckets['1-30']).toBe(0);

    // A month and the grace days later, without any event: paid 3 and paid 4 are overdue on the next
    // instalment, the others are older.
    const before = clock.days;
    clock.days = daysBetween(payDay, due(5)) + GRACE + 1;
    try {
      items = await allItems();
      expect(items.map(({ fullName: _, phone: __, status: ___, ...rest }) => rest)).toEqual(
        await expectedQueue(),
      );
      expect(items.find((i) => i.id === loans.paid4!.id)).toMatchObject({
        overdueSince: due(5),
        daysPastDue: GRACE + 1,
      });
      expect(items.find((i) => i.id === loans.paid3!.id)).toMatchObject({
        overdueSince: due(5),
        daysPastDue: GRACE + 1,
      });
    } finally {
      clock.days = before;
    }
  });

  it('is for staff: a borrower is refused, a signed-out caller must sign in', async () => {
    const b = await t.signUpBorrower();
    const borrower = await t.loginAs(b.phone, b.password);
    expect((await borrower.get('/api/staff/overdue')).status).toBe(403);
    expect((await t.api.get('/api/staff/overdue')).status).toBe(401);
    expect((await finance.get('/api/staff/overdue')).status).toBe(200);
  });

  // Last: it adds a thousand loans to the book the tests above count.
  it('counts every bucket exactly past a thousand loans, and the total', async () => {
    // 1,001 copies of a loan owing from its first instalment (90+ days), each with its own borrower.
    await sql`
      insert into users (id, phone, password_hash, role)
      select gen_random_uuid(), '0998' || lpad(g::text, 7, '0'), (select password_hash from users limit 1), 'borrower'
      from generate_series(1, 1001) as g`.execute(t.db);
    const columns = (
      await sql<{ name: string }>`
        select column_name as name from information_schema.columns
        where table_schema = current_schema() and table_name = 'applications'`.execute(t.db)
    ).rows.map((r) => r.name);
    const copied: Record<string, string> = {
      id: 'gen_random_uuid()',
      loan_number: "'CAP-' || u.phone",
      borrower_id: 'u.id',
      phone: 'u.phone',
    };
    await sql`
      insert into applications (${sql.raw(columns.join(', '))})
      select ${sql.raw(columns.map((c) => copied[c] ?? `a.${c}`).join(', '))}
      from applications a, users u
      where a.id = ${loans.unpaid!.id} and u.phone like '0998%'`.execute(t.db);
    // Written behind the app's back: on PostgreSQL no listening connection hears it (decision 030).
    t.forgetCachedAnswers();

    const page = await overdue();
    // Exact, from the counts the writes keep (migration 046, docs/decisions/069): no "1,000+".
    const { rows: inBuckets } = await sql<{ bucket: string; n: number }>`
      select case when next_due_on >= ${today()}::date - 30 then '1-30'
                  when next_due_on >= ${today()}::date - 60 then '31-60'
                  when next_due_on >= ${today()}::date - 90 then '61-90' else '90+' end as bucket,
             count(*)::int as n
      from applications
      where status in ('approved', 'on_hold') and next_due_on < ${today()}::date
        and overdue_from <= ${today()}::date
      group by 1`.execute(t.db);
    const expected = {
      '1-30': 0,
      '31-60': 0,
      '61-90': 0,
      '90+': 0,
      ...Object.fromEntries(inBuckets.map((r) => [r.bucket, r.n])),
    };
    expect(expected['90+']).toBeGreaterThan(1000);
    expect(page.buckets).toEqual(expected);
    expect(page.bucketsCapped).toEqual({ '1-30': false, '31-60': false, '61-90': false, '90+': false });
    const { rows } = await sql<{ n: number }>`
      select count(*)::int as n from applications
      where status in ('approved', 'on_hold') and next_due_on < ${today()}::date
        and overdue_from <= ${today()}::date`.execute(t.db);
    expect(rows[0]!.n).toBeGreaterThan(1001);
    expect(page).toMatchObject({ total: rows[0]!.n, totalCapped: false });
  });
});
