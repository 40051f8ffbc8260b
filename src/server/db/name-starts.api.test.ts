import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApplications } from '../../../bench/seed';
import { nameStartsAndTruth } from '../test-support/name-starts';
import { seedBorrowerWithApplication } from '../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../test-support/test-app';

/**
 * The name searches read the word starts of the names (migration 048, docs/decisions/072), which triggers
 * keep. Whatever writes — the app, a set-based bulk insert, a rename, a decision, a hold, a closure, a delete,
 * many writers of the same new words at once — the table holds exactly each start of each name in a searched
 * queue, with the queue's order time, and every start's word is among the words.
 */
let t: TestApp;
let officer: Agent;

beforeAll(async () => {
  t = await createTestApp();
  const { user, password } = await t.createUser({ role: 'officer' });
  officer = await t.loginAs(user.username!, password);
});
afterAll(() => t.close());

async function expectStartsTrue() {
  const { stored, truth, wordsMissing } = await nameStartsAndTruth(t.db);
  expect(stored).toEqual(truth);
  expect(wordsMissing).toEqual([]);
  return stored;
}

const named = async (queue: 'pending' | 'approved', name: string) => {
  // Rows changed here by SQL, not by a write request: the kept answers are forgotten when the database's
  // announcement arrives, which this test does not wait for.
  t.deps.answerCache.clear();
  const page = await officer.get(`/api/staff/applications/${queue}?name=${encodeURIComponent(name)}`);
  expect(page.status, page.text).toBe(200);
  return page.body.items.map((item: { id: string }) => item.id) as string[];
};

const setName = (id: string, fullName: string) =>
  t.db.updateTable('applications').set({ full_name: fullName }).where('id', '=', id).execute();

describe('name starts', () => {
  it('follow a set-based bulk insert (as the bench seeds), every status', async () => {
    await seedApplications(t.db, 300, '$argon2id$not-a-real-hash', () => {});
    const stored = await expectStartsTrue();
    // Pending and approved rows of two words each, rejected ones none.
    expect(stored.length).toBeGreaterThanOrEqual(2 * 240);
  });

  it('follow inserts, renames (case too) and deletes, and the search follows them', async () => {
    const first = await seedBorrowerWithApplication(t, { fullName: 'Lorna Quibuyen' });
    const second = await seedBorrowerWithApplication(t, { fullName: 'LORNA quibuyen' });
    await expectStartsTrue();
    expect(new Set(await named('pending', 'orna quib'))).toEqual(new Set([first.id, second.id]));

    await setName(first.id, 'Lorna QUIBUYEN');
    await expectStartsTrue();
    await setName(first.id, 'Lorna  Abad Lorna');
    await expectStartsTrue();
    expect(await named('pending', 'quibuyen')).toEqual([second.id]);
    expect(await named('pending', 'lorna  abad')).toEqual([first.id]);
    expect(await named('pending', 'abad lorna')).toEqual([first.id]);

    // A statement renaming several rows at once.
    await sql`update applications set full_name = case when id = ${first.id} then 'Quibuyen Lorna' else 'Lorna Abad' end
      where id in (${first.id}, ${second.id})`.execute(t.db);
    await expectStartsTrue();

    // A deleted application takes its starts with it.
    const gone = await seedBorrowerWithApplication(t, { fullName: 'Nilo Bantog' });
    expect(await named('pending', 'bantog')).toEqual([gone.id]);
    await t.db.deleteFrom('applications').where('id', '=', gone.id).execute();
    await expectStartsTrue();
    expect(await named('pending', 'bantog')).toEqual([]);
  });

  it('move with the status and the order time: approved, on hold, closed, rejected', async () => {
    const { id } = await seedBorrowerWithApplication(t, { fullName: 'Tessa Manalo' });
    const status = (next: string, decided = sql`now()`) =>
      sql`update applications set status = ${next}, decided_at = ${decided} where id = ${id}`.execute(t.db);
    await status('approved');
    await expectStartsTrue();
    expect(await named('pending', 'tessa manalo')).toEqual([]);
    expect(await named('approved', 'tessa manalo')).toEqual([id]);
    await status('on_hold');
    await expectStartsTrue();
    // Only the order time changes.
    await status('on_hold', sql`now() - interval '3 days'`);
    await expectStartsTrue();
    await status('closed');
    await expectStartsTrue();
    expect(await named('approved', 'manalo')).toEqual([]);
    await status('rejected');
    const stored = await expectStartsTrue();
    expect(stored.filter((start) => start.id === id)).toEqual([]);
  });

  it('many writers of the same new words at once lose none and wait for nothing but each other', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push((await seedBorrowerWithApplication(t, { fullName: 'Rico Yap' })).id);
    // Each row renamed to words no row had, in both orders, with new applications of them, all at once (on
    // PostgreSQL, in parallel connections).
    await Promise.all(
      ids.flatMap((id, i) => [
        setName(id, i % 2 ? 'Zandro Quijano Ybanez' : 'Ybanez Zandro Quijano'),
        seedBorrowerWithApplication(t, { fullName: i % 2 ? 'Quijano Ybanez' : 'Zandro Ybanez' }),
      ]),
    );
    await expectStartsTrue();
    expect(await named('pending', 'zandro quijano')).toHaveLength(10);
  });
});
