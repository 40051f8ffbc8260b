import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedApplications } from '../../../bench/seed';
import { NameSearchRoute } from '../lib/name-search-route';
import { borrowerNamesAndTruth } from '../test-support/borrower-names';
import { seedBorrowerWithApplication } from '../test-support/seed';
import { type Agent, createTestApp, type TestApp } from '../test-support/test-app';

/**
 * The name searches start from the borrowers' distinct names (migration 042, docs/decisions/065), which
 * triggers keep. Whatever writes — the app, a set-based bulk insert, a rename, a delete, many writers of
 * one name at once — the table holds exactly each lower-cased name of an application with how
 * many carry it, and a name no application carries is gone (an anonymised borrower's too).
 */
let t: TestApp;
let officer: Agent;

beforeAll(async () => {
  t = await createTestApp();
  // The searches below go by the names (docs/decisions/066 decides that from table statistics elsewhere).
  t.deps.nameSearch = new NameSearchRoute(t.db, { forced: true });
  const { user, password } = await t.createUser({ role: 'officer' });
  officer = await t.loginAs(user.username!, password);
});
afterAll(() => t.close());

async function expectNamesTrue() {
  const { stored, truth } = await borrowerNamesAndTruth(t.db);
  expect(stored).toEqual(truth);
  return stored;
}

const pendingNamed = async (name: string) => {
  // Rows changed here by SQL, not by a write request: the kept answers are forgotten when the database's
  // announcement arrives, which this test does not wait for.
  t.deps.answerCache.clear();
  const page = await officer.get(`/api/staff/applications/pending?name=${encodeURIComponent(name)}`);
  expect(page.status, page.text).toBe(200);
  return page.body.items.map((item: { id: string }) => item.id) as string[];
};

describe('borrower names', () => {
  it('follow a set-based bulk insert (as the bench seeds)', async () => {
    await seedApplications(t.db, 300, '$argon2id$not-a-real-hash', () => {});
    const stored = await expectNamesTrue();
    expect(stored.reduce((sum, n) => sum + n.applications, 0)).toBeGreaterThanOrEqual(300);
  });

  it('follow inserts, renames (case aside) and deletes, and the search follows them', async () => {
    const first = await seedBorrowerWithApplication(t, { fullName: 'Lorna Quibuyen' });
    const second = await seedBorrowerWithApplication(t, { fullName: 'LORNA quibuyen' });
    const names = await expectNamesTrue();
    expect(names).toContainEqual({ name: 'lorna quibuyen', applications: 2 });
    expect(new Set(await pendingNamed('orna quib'))).toEqual(new Set([first.id, second.id]));

    // Only the case changes: the same name, nothing moves.
    await t.db
      .updateTable('applications')
      .set({ full_name: 'Lorna QUIBUYEN' })
      .where('id', '=', first.id)
      .execute();
    expect(await expectNamesTrue()).toContainEqual({ name: 'lorna quibuyen', applications: 2 });

    await t.db
      .updateTable('applications')
      .set({ full_name: 'Lorna Abad' })
      .where('id', '=', first.id)
      .execute();
    expect(await expectNamesTrue()).toContainEqual({ name: 'lorna quibuyen', applications: 1 });
    expect(await pendingNamed('quibuyen')).toEqual([second.id]);
    expect(await pendingNamed('lorna abad')).toEqual([first.id]);

    // The last one carrying it renamed: the name is gone, not kept at zero.
    await t.db
      .updateTable('applications')
      .set({ full_name: 'Lorna Abad' })
      .where('id', '=', second.id)
      .execute();
    expect((await expectNamesTrue()).map((n) => n.name)).not.toContain('lorna quibuyen');
    expect(await pendingNamed('quibuyen')).toEqual([]);

    // A statement renaming several rows at once, some to a name others leave.
    await sql`update applications set full_name = case when id = ${first.id} then 'Quibuyen Lorna' else 'Lorna Abad' end
      where id in (${first.id}, ${second.id})`.execute(t.db);
    await expectNamesTrue();

    // A deleted application takes its count with it.
    const gone = await seedBorrowerWithApplication(t, { fullName: 'Nilo Bantog' });
    expect(await expectNamesTrue()).toContainEqual({ name: 'nilo bantog', applications: 1 });
    await t.db.deleteFrom('applications').where('id', '=', gone.id).execute();
    expect((await expectNamesTrue()).map((n) => n.name)).not.toContain('nilo bantog');
  });

  it('many writers of the same names at once lose no count', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 12; i++)
      ids.push((await seedBorrowerWithApplication(t, { fullName: 'Rico Yap' })).id);
    // Each row moves back and forth between two names, all at once (on PostgreSQL, in parallel connections).
    await Promise.all(
      ids.flatMap((id, i) => [
        t.db
          .updateTable('applications')
          .set({ full_name: i % 2 ? 'Rico Tan' : 'Rico Yap Jr' })
          .where('id', '=', id)
          .execute(),
        seedBorrowerWithApplication(t, { fullName: i % 2 ? 'Rico Yap' : 'Rico Tan' }),
      ]),
    );
    await Promise.all(
      ids.map((id) =>
        t.db.updateTable('applications').set({ full_name: 'Rico Yap' }).where('id', '=', id).execute(),
      ),
    );
    const stored = await expectNamesTrue();
    expect(stored).toContainEqual({ name: 'rico yap', applications: 12 + 6 });
    expect(stored).toContainEqual({ name: 'rico tan', applications: 6 });
    expect(stored.map((n) => n.name)).not.toContain('rico yap jr');
  });
});
