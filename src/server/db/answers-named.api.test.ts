import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { eventually } from '../test-support/eventually';
import { seedApplication, seedBorrowerWithApplication, seedPaidDisbursement } from '../test-support/seed';
import { createTestApp, type TestApp, testDbKind } from '../test-support/test-app';
import { MAX_NAMES } from './migrations/043-answers-named-by-borrower';

/**
 * What the database announces on `hiram_answers` for a change to a borrower's rows (migration 043,
 * docs/decisions/067): the table and the lower-cased names of the applications it touched, before and after,
 * or the table alone when it cannot say. The answer cache keeps a name search's answer on the strength of it.
 */
describe("changes to a borrower's rows announce the borrowers' names", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ postgresEvents: testDbKind() === 'postgres' });
  });
  afterAll(() => t.close());

  /** The announcements of `table` while `change` ran, each as its table and names (sorted), or the table. */
  const announced = async (table: string, change: () => Promise<unknown>) => {
    const heard = vi.spyOn(t.deps.answerCache, 'heard');
    const payloads = () => heard.mock.calls.map(([payload]) => payload ?? '');
    // Markers sent before and after the change: on PostgreSQL notices arrive a moment after their commit,
    // in commit order, so what lies between the two is the change's and nothing earlier's.
    const marker = async () => {
      const sent = `sync:test-${randomUUID()}`;
      await sql`select pg_notify('hiram_answers', ${sent})`.execute(t.db);
      expect(await eventually(async () => payloads().includes(sent))).toBe(true);
      return sent;
    };
    try {
      const before = await marker();
      await change();
      const after = await marker();
      const all = payloads();
      return all
        .slice(all.indexOf(before) + 1, all.indexOf(after))
        .filter((payload) => payload === table || payload.startsWith(`${table}:`))
        .map((payload) =>
          payload === table
            ? table
            : `${table}:${(JSON.parse(payload.slice(table.length + 1)) as string[]).sort().join('|')}`,
        );
    } finally {
      heard.mockRestore();
    }
  };

  it('an insert, a rename, another change and a payout name the borrower, lower-cased, before and after', async () => {
    const tag = t.nextPhone().slice(-7);
    let id = '';
    expect(
      await announced('applications', async () => {
        id = (await seedBorrowerWithApplication(t, { fullName: `Ayla QUINTO ${tag}` })).id;
      }),
    ).toEqual([`applications:ayla quinto ${tag}`]);
    const rename = () =>
      t.db
        .updateTable('applications')
        .set({ full_name: `Cora Lim ${tag}` })
        .where('id', '=', id)
        .execute();
    expect(await announced('applications', rename)).toEqual([
      `applications:ayla quinto ${tag}|cora lim ${tag}`,
    ]);
    const note = () =>
      t.db.updateTable('applications').set({ status_message: 'Checking' }).where('id', '=', id).execute();
    expect(await announced('applications', note)).toEqual([`applications:cora lim ${tag}`]);
    expect(await announced('disbursements', () => seedPaidDisbursement(t.db, id))).toEqual([
      `disbursements:cora lim ${tag}`,
    ]);
  });

  it('a rename names both names (the word starts move with it, announced by it); no row changed, nothing', async () => {
    const tag = t.nextPhone().slice(-7);
    const { id } = await seedBorrowerWithApplication(t, { fullName: `Dana Pulido ${tag}` });
    const rename = () =>
      t.db
        .updateTable('applications')
        .set({ full_name: `Eli Pulido ${tag}` })
        .where('id', '=', id)
        .execute();
    expect(await announced('applications', rename)).toEqual([
      `applications:dana pulido ${tag}|eli pulido ${tag}`,
    ]);
    expect(
      await announced('applications', () =>
        t.db
          .updateTable('applications')
          .set({ status_message: 'x' })
          .where('id', '=', randomUUID())
          .execute(),
      ),
    ).toEqual([]);
  });

  it(`more than ${MAX_NAMES} rows in one statement announce the table alone`, async () => {
    const { borrower } = await seedBorrowerWithApplication(t, { fullName: 'Many Rows', status: 'rejected' });
    for (let i = 0; i < MAX_NAMES; i++) {
      await seedApplication(t.db, {
        borrowerId: borrower.user.id,
        phone: borrower.phone,
        fullName: `Many Rows ${i}`,
        status: 'rejected',
      });
    }
    const update = (limit: number) =>
      t.db
        .updateTable('applications')
        .set({ status_message: 'bulk' })
        .where(
          'id',
          'in',
          t.db
            .selectFrom('applications')
            .select('id')
            .where('borrower_id', '=', borrower.user.id)
            .limit(limit),
        )
        .execute();
    expect(await announced('applications', () => update(MAX_NAMES + 1))).toEqual(['applications']);
    const named = await announced('applications', () => update(MAX_NAMES));
    expect(named).toHaveLength(1);
    expect(named[0]!.split(':')[1]!.split('|')).toHaveLength(MAX_NAMES);
  });
});
