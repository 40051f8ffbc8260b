import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedAll } from '../../../bench/seed';
import { PAGE_SIZE } from '../../domain/schemas/staff';
import { type Agent, createTestApp, type TestApp } from '../test-support/test-app';
import { escapeLike } from './like';

/**
 * The lists whose name search reaches the loans through their word starts (migration 048) — Payouts and
 * Repayments through the running and closed loans (`everApprovedLoans`), the overdue queue through the
 * running ones — find exactly the rows a plain `lower(full_name) like '%text%'` finds, in the list's order,
 * with the same total. (Pending, Approved and Loan Servicing: `searched-pages.api.test.ts`.)
 */
let t: TestApp;
let admin: Agent;

/** Names a word-start search could get wrong, given to some paid-out loans. */
const trickyNames = [
  'Maria Maria Santos',
  'Ana  Maria Cruz',
  'Anamaria Santos',
  "O'Brien-Cruz Maria",
  'Santos',
];

beforeAll(async () => {
  t = await createTestApp();
  // The bench's seed: 2,000 applications over 400 names, paid-out loans with their payments, some overdue.
  await seedAll(t.db, 2_000, '$argon2id$not-a-real-hash', () => {});
  await sql`
    update applications a set full_name = (${sql.val(trickyNames)}::text[])[1 + r.n % ${trickyNames.length}]
    from (select id, row_number() over (order by loan_number) as n from applications
          where status in ('approved', 'on_hold', 'closed') and full_name like 'Jose %') r
    where a.id = r.id and r.n <= 60`.execute(t.db);
  const { user, password } = await t.createUser({ role: 'admin' });
  admin = await t.loginAs(user.username!, password);
}, 120_000);
afterAll(() => t.close());

const searches = [
  'maria santos',
  'maria',
  'ria san',
  'maria maria',
  'a  maria',
  "o'brien-c",
  'santos',
  'a',
  'zzz',
];

async function answer(path: string, name: string, page: number) {
  t.deps.answerCache.clear();
  const response = await admin.get(`${path}?name=${encodeURIComponent(name)}&page=${page}`);
  expect(response.status, response.text).toBe(200);
  return response.body as { items: { id: string }[]; total: number; totalCapped: boolean };
}

/** The plain reading: every row of `table` whose loan's name contains `name`, in the list's order. */
async function plain(table: 'disbursements' | 'repayments', name: string) {
  const at = table === 'disbursements' ? sql.ref('r.requested_at') : sql.ref('r.created_at');
  const { rows } = await sql<{ id: string }>`
    select r.id from ${sql.table(table)} r join applications a on a.id = r.application_id
    where lower(a.full_name) like ${`%${escapeLike(name)}%`} order by ${at} desc, r.id desc`.execute(t.db);
  return rows.map((row) => row.id);
}

describe('name searches through the loans’ word starts', () => {
  it.each([
    ['/api/staff/disbursements', 'disbursements'],
    ['/api/staff/repayments', 'repayments'],
  ] as const)('%s: every page the plain search gives, with its total', async (path, table) => {
    let compared = 0;
    for (const name of searches) {
      const ids = await plain(table, name);
      const last = Math.max(1, Math.ceil(ids.length / PAGE_SIZE));
      for (const page of new Set([1, 2, last])) {
        const got = await answer(path, name, page);
        const what = `${path} "${name}" page ${page}`;
        expect(
          got.items.map((item) => item.id),
          what,
        ).toEqual(ids.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE));
        if (!got.totalCapped) expect(got.total, what).toBe(ids.length);
        else expect(ids.length, what).toBeGreaterThan(got.total);
        compared += got.items.length;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });

  it('the overdue queue: the unsearched queue’s loans whose name contains the text, in its order', async () => {
    const all: { id: string; fullName: string }[] = [];
    for (let page = 1; ; page++) {
      const got = await answer('/api/staff/overdue', '', page);
      all.push(...(got.items as unknown as { id: string; fullName: string }[]));
      if (got.items.length < PAGE_SIZE) break;
    }
    expect(all.length).toBeGreaterThan(20);
    let compared = 0;
    for (const name of searches) {
      const ids = all.filter((loan) => loan.fullName.toLowerCase().includes(name)).map((loan) => loan.id);
      for (const page of new Set([1, 2, Math.max(1, Math.ceil(ids.length / PAGE_SIZE))])) {
        const got = await answer('/api/staff/overdue', name, page);
        expect(
          got.items.map((item) => item.id),
          `overdue "${name}" page ${page}`,
        ).toEqual(ids.slice((page - 1) * PAGE_SIZE, page * PAGE_SIZE));
        compared += got.items.length;
      }
    }
    expect(compared).toBeGreaterThan(20);
  });
});
