import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { App } from '../lib/types';
import { eventually } from '../test-support/eventually';
import {
  type Agent,
  createTestApp,
  secondInstance,
  type TestApp,
  testDbKind,
} from '../test-support/test-app';
import { pruneExpired } from './sessions';

/**
 * The session cache (docs/decisions/027) with a time limit far longer than any test waits, so that only
 * emptying it (a write request, a database announcement) can explain a change being seen.
 */
const LONG = { sessionCacheMs: 10_000 };
const onPostgres = testDbKind() === 'postgres';

describe('session cache', () => {
  let t: TestApp;
  let admin: Agent;
  beforeAll(async () => {
    // On PostgreSQL with the app's listening connection, as deployed with DATABASE_URL.
    t = await createTestApp({ config: LONG, postgresEvents: onPostgres });
    admin = await t.signInStaff('admin');
  });
  afterAll(() => t.close());

  const me = async (agent: Agent) => (await agent.get('/api/me')).body.user;
  const borrower = async () => {
    const { user, phone, password } = await t.signUpBorrower();
    return { user, agent: await t.loginAs(phone, password) };
  };
  /**
   * Signed in and cached. On PostgreSQL the sign-in's own announcement (its last-login time) may arrive during
   * the first lookup, which then keeps nothing: ask until one is kept.
   */
  const cachedSignIn = async () => {
    const signedIn = await borrower();
    const kept = await eventually(async () => {
      t.deps.sessionCache.clear();
      return (await me(signedIn.agent)).id === signedIn.user.id && t.deps.sessionCache.size === 1;
    });
    expect(kept).toBe(true);
    return signedIn;
  };

  it('keeps the lookup a request made, so the next request of that browser needs no session read', async () => {
    const { user, agent } = await cachedSignIn();
    // Moved behind the app's back and not announced: the cached read answers.
    await sql`update sessions set csrf_token = csrf_token where user_id = ${user.id}`.execute(t.db);
    await sql`update sessions set last_seen_at = now() - interval '2 days' where user_id = ${user.id}`.execute(
      t.db,
    );
    expect((await me(agent)).id).toBe(user.id);
    t.forgetCachedSessions();
    expect(await me(agent)).toBeNull();
  });

  it("a user's own change is seen by their very next request", async () => {
    const { agent } = await borrower();
    expect((await me(agent)).avatar).toBe(1);
    expect((await agent.post('/api/account/avatar', { avatar: 4 })).status).toBe(200);
    expect((await me(agent)).avatar).toBe(4);
    expect((await agent.post('/api/auth/logout')).status).toBe(200);
    expect(await me(agent)).toBeNull();
  });

  it("staff deleting a user ends that user's cached session at once", async () => {
    const { user, agent } = await borrower();
    expect((await me(agent)).id).toBe(user.id);
    const deleted = await admin.request('DELETE', `/api/admin/users/${user.id}`);
    expect(deleted.status, deleted.text).toBe(200);
    expect(await me(agent)).toBeNull();
  });

  it('a change made outside this app is announced by the database and ends the cached session', async () => {
    const { user, agent } = await cachedSignIn();
    await t.db.updateTable('users').set({ status: 'deactivated' }).where('id', '=', user.id).execute();
    // PGlite announces before the statement's promise settles; PostgreSQL through the listening connection.
    expect(await eventually(async () => (await me(agent)) === null)).toBe(true);

    const second = await cachedSignIn();
    await t.db.deleteFrom('sessions').where('user_id', '=', second.user.id).execute();
    expect(await eventually(async () => (await me(second.agent)) === null)).toBe(true);
  });

  it('pruning sessions that have already ended announces nothing; ending a live one does', async () => {
    const other = await borrower();
    const { user } = await cachedSignIn();
    // A session of the other borrower that has run out, as the hourly prune finds them.
    await t.db
      .insertInto('sessions')
      .values({
        id_hash: `expired-${other.user.id}`,
        user_id: other.user.id,
        csrf_token: 'x',
        last_seen_at: sql<Date>`now() - interval '2 days'`,
        expires_at: sql<Date>`now() - interval '1 day'`,
      })
      .execute();
    const forgotten = vi.spyOn(t.deps.sessionCache, 'forgetUser');
    try {
      await pruneExpired(t.db);
      expect(
        await t.db.selectFrom('sessions').select('id_hash').where('id_hash', 'like', 'expired-%').execute(),
      ).toEqual([]);
      // A live session deleted is still announced. Announcements arrive in commit order, so once this one
      // is heard, one from the prune would have been heard before it.
      await t.db.deleteFrom('sessions').where('user_id', '=', user.id).execute();
      expect(await eventually(async () => forgotten.mock.calls.some(([id]) => id === user.id))).toBe(true);
      expect(forgotten.mock.calls.map(([id]) => id)).not.toContain(other.user.id);
    } finally {
      forgotten.mockRestore();
    }
  });

  it("a second factor added, changed or removed behind the app's back is announced for its user", async () => {
    const { user } = await cachedSignIn();
    const forgotten = vi.spyOn(t.deps.sessionCache, 'forgetUser');
    const heardFor = async (change: () => Promise<unknown>) => {
      forgotten.mockClear();
      await change();
      return eventually(async () => forgotten.mock.calls.some(([id]) => id === user.id));
    };
    try {
      expect(
        await heardFor(() =>
          t.db.insertInto('user_totp').values({ user_id: user.id, secret_encrypted: 'sealed' }).execute(),
        ),
      ).toBe(true);
      expect(
        await heardFor(() =>
          t.db
            .updateTable('user_totp')
            .set({ confirmed_at: new Date() })
            .where('user_id', '=', user.id)
            .execute(),
        ),
      ).toBe(true);
      expect(
        await heardFor(() => t.db.deleteFrom('user_totp').where('user_id', '=', user.id).execute()),
      ).toBe(true);
    } finally {
      forgotten.mockRestore();
    }
  });

  // Last: it ends every session of this app, the admin's too.
  it('emptying the sessions table outright (TRUNCATE, no row trigger) is announced too', async () => {
    const { agent } = await cachedSignIn();
    await sql`truncate sessions`.execute(t.db);
    expect(await eventually(async () => (await me(agent)) === null)).toBe(true);
  });
});

describe.skipIf(!onPostgres)('session cache across two instances on one PostgreSQL', () => {
  let t: TestApp;
  let other: App;
  let closeOther: () => Promise<void>;
  beforeAll(async () => {
    t = await createTestApp({ config: LONG, postgresEvents: true });
    ({ app: other, close: closeOther } = await secondInstance(t, LONG));
  });
  afterAll(async () => {
    await closeOther?.();
    await t.close();
  });

  it('signing out on one instance ends the session the other had cached', async () => {
    const { phone, password, user } = await t.signUpBorrower();
    const agent = await t.loginAs(phone, password);
    const cookie = [...agent.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const meOnOther = async () =>
      (await other.inject({ method: 'GET', url: '/api/me', headers: { cookie } })).json().user;
    expect((await meOnOther()).id).toBe(user.id);
    // The sign-in's own announcement (its last-login time) may reach the other instance during that lookup,
    // which then keeps nothing; the next one is kept.
    expect(
      await eventually(async () => (await meOnOther()).id === user.id && other.deps.sessionCache.size === 1),
    ).toBe(true);
    expect((await agent.post('/api/auth/logout')).status).toBe(200);
    expect(await eventually(async () => (await meOnOther()) === null)).toBe(true);
  });
});
