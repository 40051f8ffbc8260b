import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
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
  'credit_refunds',
  'documents',
  'loan_facts_stale',
  'loan_reminders',
  // Loan products (docs/decisions/034): no cached answer reads them; a version never changes once written.
  'product_versions',
  'products',
  'rate_limit_counters',
  'sessions',
  'user_passkeys',
  'user_recovery_codes',
  'user_totp',
  'verification_codes',
];

describe('back-office answer cache', () => {
  let t: TestApp;
  let admin: Agent;
  let adminId: string;
  beforeAll(async () => {
    // On PostgreSQL with the app's listening connection, as deployed with DATABASE_URL.
    t = await createTestApp({ config: LONG, postgresEvents: onPostgres });
    const a = await t.createUser({ role: 'admin' });
    adminId = a.user.id;
    admin = await t.loginAs(a.user.username!, a.password);
  });
  afterAll(() => t.close());

  const usernameListed = async (phone: string) => {
    const answer = await admin.get(`/api/admin/users?phone=${phone}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.items.map((u: { username: string | null }) => u.username) as (string | null)[];
  };
  /**
   * Waits until this instance has heard every change announced so far (on PostgreSQL they come a moment
   * later). Announcements arrive in commit order, and within one transaction in the order sent: changing
   * the admin's row announces the admin's sessions (row trigger), then the answers (statement trigger), so
   * the first emptying heard after that session notice is this change's, and every earlier one is in.
   */
  const announcementsHeard = async () => {
    const sessions = vi.spyOn(t.deps.sessionCache, 'forgetUser');
    const answers = vi.spyOn(t.deps.answerCache, 'clear');
    try {
      await t.db.updateTable('users').set({ avatar: 2 }).where('id', '=', adminId).execute();
      const heard = await eventually(async () => {
        const index = sessions.mock.calls.findIndex(([id]) => id === adminId);
        if (index < 0) return false;
        const after = sessions.mock.invocationCallOrder[index]!;
        return answers.mock.invocationCallOrder.some((order) => order > after);
      });
      expect(heard).toBe(true);
    } finally {
      sessions.mockRestore();
      answers.mockRestore();
    }
  };
  /** A staff user listed, and that answer kept. */
  const listedAndKept = async () => {
    const { user } = await t.createUser({ role: 'officer' });
    await announcementsHeard();
    expect(await usernameListed(user.phone!)).toEqual([user.username]);
    expect(t.deps.answerCache.size).toBe(1);
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

  it('still checks who asks on every request: a kept answer goes to no one the route refuses', async () => {
    const user = await listedAndKept();
    const o = await t.createUser({ role: 'officer' });
    const officer = await t.loginAs(o.user.username!, o.password);
    const refused = await officer.get(`/api/admin/users?phone=${user.phone}`);
    expect(refused.status).toBe(403);
    expect(refused.text).not.toContain(user.phone!);
    expect((await t.api.get(`/api/admin/users?phone=${user.phone}`)).status).toBe(401);
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

  it('every route that keeps its answers reads only tables that announce their changes', async () => {
    const { rows } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%'`.execute(
      t.db,
    );
    const tableNames = rows.map((r) => r.name);
    const docs = await admin.get('/api/docs/json');
    expect(docs.status).toBe(200);
    const paths = Object.entries(docs.body.paths as Record<string, Record<string, unknown>>)
      // Not the live event stream: it never ends.
      .filter(([path, operations]) => 'get' in operations && !path.includes('{') && !path.endsWith('/events'))
      .map(([path]) => path);
    const statements = vi.spyOn(t.db.getExecutor(), 'executeQuery');
    const kept = vi.spyOn(t.deps.answerCache, 'get');
    const readBy = new Map<string, Set<string>>();
    try {
      for (const path of paths) {
        // Each as it is, and with a search, which some lists read another way.
        for (const url of [path, `${path}?name=a&phone=1&actor=a&q=a`]) {
          t.deps.answerCache.clear();
          statements.mockClear();
          kept.mockClear();
          const answer = await admin.get(url);
          if (kept.mock.calls.length === 0) continue;
          expect(answer.status, `${url}: ${answer.text}`).toBe(200);
          const text = statements.mock.calls.map(([query]) => query.sql).join('\n');
          const tables = readBy.get(path) ?? new Set<string>();
          for (const table of tableNames)
            if (new RegExp(`"${table}"|\\b${table}\\b`).test(text)) tables.add(table);
          readBy.set(path, tables);
        }
      }
    } finally {
      statements.mockRestore();
      kept.mockRestore();
    }
    // Every list and the dashboard's two answers: the check cannot pass by finding none.
    expect(readBy.size).toBeGreaterThanOrEqual(13);
    const unannounced = [...readBy].flatMap(([path, tables]) =>
      [...tables]
        .filter((table) => !(ANSWER_TABLES as readonly string[]).includes(table))
        .map((table) => `${path}: ${table}`),
    );
    expect(unannounced).toEqual([]);
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
