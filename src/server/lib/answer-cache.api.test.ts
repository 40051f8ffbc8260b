import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ANSWER_TABLES } from '../db/migrations/020-answer-change-notify';
import type { Database } from '../db/schema';
import { eventually } from '../test-support/eventually';
import { type Agent, createTestApp, type TestApp, testDbKind } from '../test-support/test-app';

/**
 * The back-office answer cache (docs/decisions/030) with a time limit far longer than any test waits, so
 * that only emptying it (a write request, a database announcement) can explain a change being seen.
 */
const LONG = { staffAnswerCacheMs: 10_000 };
const onPostgres = testDbKind() === 'postgres';

/** Tables no back-office answer reads, so their changes announce nothing (migration 020 says why). */
const NOT_READ_BY_ANSWERS = [
  'borrower_events',
  'consents',
  'documents',
  'loan_facts_stale',
  'loan_reminders',
  'rate_limit_counters',
  'second_factor_throttle',
  'sessions',
  'terms_changes',
  'user_passkeys',
  'user_recovery_codes',
  'user_totp',
  'verification_codes',
];

describe('back-office answer cache', () => {
  let t: TestApp;
  let admin: Agent;
  beforeAll(async () => {
    // On PostgreSQL with the app's listening connection, as deployed with DATABASE_URL.
    t = await createTestApp({ config: LONG, postgresEvents: onPostgres });
    const a = await t.createUser({ role: 'admin' });
    admin = await t.loginAs(a.user.username!, a.password);
  });
  afterAll(() => t.close());

  const usernameListed = async (phone: string) => {
    const answer = await admin.get(`/api/admin/users?phone=${phone}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.items.map((u: { username: string | null }) => u.username) as (string | null)[];
  };
  /** A staff user listed and that answer kept (an announcement may land during the first read: ask again). */
  const listedAndKept = async () => {
    const { user } = await t.createUser({ role: 'officer' });
    const kept = await eventually(async () => {
      t.deps.answerCache.clear();
      return (await usernameListed(user.phone!))[0] === user.username && t.deps.answerCache.size === 1;
    });
    expect(kept).toBe(true);
    return user;
  };
  /** Changes rows with the database's triggers off, as a lost announcement would leave them. */
  const unannounced = (change: (trx: Kysely<Database>) => Promise<unknown>) =>
    t.db.transaction().execute(async (trx) => {
      await sql`set local session_replication_role = replica`.execute(trx);
      await change(trx);
    });
  const rename = (trx: Kysely<Database>, id: string, username: string) =>
    trx.updateTable('users').set({ username }).where('id', '=', id).execute();

  it('answers the same request from one read until something empties it', async () => {
    const user = await listedAndKept();
    await unannounced((trx) => rename(trx, user.id, 'renamed-quietly'));
    expect(await usernameListed(user.phone!)).toEqual([user.username]);
    t.deps.answerCache.clear();
    expect(await usernameListed(user.phone!)).toEqual(['renamed-quietly']);
  });

  it('a different query is a different answer', async () => {
    const first = await listedAndKept();
    const { user: second } = await t.createUser({ role: 'finance' });
    expect(await usernameListed(second.phone!)).toEqual([second.username]);
    expect(await usernameListed(first.phone!)).toEqual([first.username]);
  });

  it('any write request empties it before its answer leaves, even one that changes no listed table', async () => {
    // Signed in first: signing up and in change users (announced), signing out only a session (not).
    const { phone, password } = await t.signUpBorrower();
    const borrower = await t.loginAs(phone, password);
    const user = await listedAndKept();
    await unannounced((trx) => rename(trx, user.id, 'renamed-before-a-write'));
    expect(await usernameListed(user.phone!)).toEqual([user.username]);
    expect((await borrower.post('/api/auth/logout')).status).toBe(200);
    expect(await usernameListed(user.phone!)).toEqual(['renamed-before-a-write']);
  });

  it("a change made outside the app is announced by the database's triggers and empties it", async () => {
    const user = await listedAndKept();
    await t.db.updateTable('users').set({ username: 'renamed-by-sql' }).where('id', '=', user.id).execute();
    // PGlite announces before the statement's promise settles; PostgreSQL through the listening connection.
    expect(await eventually(async () => (await usernameListed(user.phone!))[0] === 'renamed-by-sql')).toBe(
      true,
    );
  });

  it('every table either announces its changes or is named as read by no answer', async () => {
    const { rows: tables } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
      order by 1`.execute(t.db);
    expect(tables.map((r) => r.name)).toEqual([...ANSWER_TABLES, ...NOT_READ_BY_ANSWERS].sort());
    const { rows: announcing } = await sql<{ name: string }>`
      select c.relname as name from pg_trigger tg join pg_class c on c.oid = tg.tgrelid
      where tg.tgname = c.relname || '_answers_changed' order by 1`.execute(t.db);
    expect(announcing.map((r) => r.name)).toEqual([...ANSWER_TABLES].sort());
  });
});
