import fc from 'fast-check';
import { type Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { buildApp } from '../app';
import { ANNOUNCING_TABLES, DERIVED_FROM_APPLICATIONS } from '../db/migrations/048-name-starts';
import type { Database } from '../db/schema';
import { eventually } from '../test-support/eventually';
import { multipartBody } from '../test-support/images';
import { seedBorrowerWithApplication, seedPaidDisbursement } from '../test-support/seed';
import {
  type Agent,
  createTestApp,
  secondInstance,
  type TestApp,
  testConfig,
  testDbKind,
} from '../test-support/test-app';
import type { App } from './types';

/**
 * The back-office answer cache (docs/decisions/030) with a time limit far longer than any test waits, so
 * that only emptying it (a write request, a database announcement) can explain a change being seen.
 */
const LONG = { staffAnswerCacheMs: 10_000 };
const onPostgres = testDbKind() === 'postgres';

/** Tables no back-office answer reads, so their changes announce nothing (migrations 020 and 034 say why). */
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

/** `admin` adds a staff member through the route (a write to users), which must succeed. */
async function addStaff(
  admin: Agent,
  fields: { username: string; phone: string; role: 'officer' | 'finance' },
) {
  const added = await admin.post('/api/admin/users', { ...fields, password: 'temporary-pass-1' });
  expect(added.status, added.text).toBe(201);
}

describe('back-office answer cache', () => {
  let t: TestApp;
  let admin: Agent;
  beforeAll(async () => {
    // On PostgreSQL with the app's listening connection, as deployed with DATABASE_URL.
    t = await createTestApp({ config: LONG, postgresEvents: onPostgres });
    admin = await t.signInStaff('admin');
  });
  afterAll(() => t.close());

  const usernameListed = async (phone: string) => {
    const answer = await admin.get(`/api/admin/users?phone=${phone}`);
    expect(answer.status, answer.text).toBe(200);
    return answer.body.items.map((u: { username: string | null }) => u.username) as (string | null)[];
  };
  /**
   * Waits until this instance has heard every change announced so far (on PostgreSQL they come a moment
   * later), independently of how a write request does it (docs/decisions/043).
   */
  const announcementsHeard = async () => {
    // Its own notice, sent after every change so far, arrives after theirs (in commit order).
    const heard = vi.spyOn(t.deps.answerCache, 'heard');
    try {
      const marker = `sync:test-${Math.random()}`;
      await sql`select pg_notify('hiram_answers', ${marker})`.execute(t.db);
      expect(await eventually(async () => heard.mock.calls.some(([payload]) => payload === marker))).toBe(
        true,
      );
    } finally {
      heard.mockRestore();
    }
  };
  /** A staff user listed, and that answer kept. */
  const listedAndKept = async () => {
    const { user } = await t.createUser({ role: 'officer' });
    await announcementsHeard();
    t.deps.answerCache.clear();
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
    const officer = await t.signInStaff('officer');
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

  it('a write request forgets, before its answer leaves, the answers reading a table it changed', async () => {
    const user = await listedAndKept();
    await unannounced((trx) => rename(trx, user.id, 'renamed-before-a-write'));
    expect(await usernameListed(user.phone!)).toEqual([user.username]);
    // Adding a user changes users: the very next request reads the list again.
    await addStaff(admin, { username: t.nextUsername('added'), phone: t.nextPhone(), role: 'officer' });
    expect(await usernameListed(user.phone!)).toEqual(['renamed-before-a-write']);
  });

  it('the next request after a write sees it even when announcements are slow to arrive', async () => {
    const user = await listedAndKept();
    await unannounced((trx) => rename(trx, user.id, 'renamed-before-a-slow-write'));
    // Every announcement reaches the cache 100 ms late, in the order it arrived (a busy listener).
    const cache = t.deps.answerCache;
    const heard = cache.heard.bind(cache);
    const slow = vi
      .spyOn(cache, 'heard')
      .mockImplementation((payload) => void setTimeout(() => heard(payload), 100));
    try {
      await addStaff(admin, { username: t.nextUsername('slow'), phone: t.nextPhone(), role: 'officer' });
      expect(await usernameListed(user.phone!)).toEqual(['renamed-before-a-slow-write']);
    } finally {
      slow.mockRestore();
    }
  });

  it('a write request that changes no table an answer reads leaves every answer', async () => {
    // Signed in first: signing up and in change users (announced), signing out only a session (not).
    const { phone, password } = await t.signUpBorrower();
    const borrower = await t.loginAs(phone, password);
    const user = await listedAndKept();
    await unannounced((trx) => rename(trx, user.id, 'renamed-unseen'));
    expect((await borrower.post('/api/auth/logout')).status).toBe(200);
    expect(await usernameListed(user.phone!)).toEqual([user.username]);
  });

  describe('an unrelated list keeps its answer, a related one reads again', () => {
    /** A list's answer, and whether its use case ran (false: the answer came from the cache). */
    const readFor = async (url: string) => {
      const cache = t.deps.answerCache;
      const get = cache.get.bind(cache);
      let read = false;
      const spy = vi.spyOn(cache, 'get').mockImplementation((key, reads, run, scope) =>
        get(
          key,
          reads,
          () => {
            read = true;
            return run();
          },
          scope,
        ),
      );
      try {
        const answer = await admin.get(url);
        expect(answer.status, `${url}: ${answer.text}`).toBe(200);
        // Once per answer (the overdue queue's page and its bucket counts are two).
        expect(spy).toHaveBeenCalled();
        return { body: answer.body, read };
      } finally {
        spy.mockRestore();
      }
    };
    const complaint = async () => {
      const { borrower: b } = await seedBorrowerWithApplication(t, { status: 'approved' });
      const borrower = await t.loginAs(b.phone, b.password);
      const body = multipartBody({ category: 'collection_practices', text: 'Called at midnight.' }, []);
      const filed = await borrower.request('POST', '/api/complaints', {
        raw: body.payload,
        headers: { 'content-type': body.contentType },
      });
      expect(filed.status, filed.text).toBe(201);
      return filed.body.id as string;
    };

    it('a complaint reply keeps the users list and reads the complaints list again', async () => {
      const id = await complaint();
      const user = await listedAndKept();
      const users = `/api/admin/users?phone=${user.phone}`;
      expect((await readFor(users)).read).toBe(false);
      const before = await readFor('/api/staff/complaints');
      expect(before.body.items.some((c: { id: string }) => c.id === id)).toBe(true);
      expect((await readFor('/api/staff/complaints')).read).toBe(false);

      const replied = await admin.post(`/api/staff/complaints/${id}/replies`, { message: 'We are on it.' });
      expect(replied.status, replied.text).toBe(200);

      // Kept: not read again.
      const kept = await readFor(users);
      expect(kept.read).toBe(false);
      expect(kept.body.items.map((u: { username: string }) => u.username)).toEqual([user.username]);
      // Read again, and the reply is in it.
      const after = await readFor('/api/staff/complaints');
      expect(after.read).toBe(true);
      const row = after.body.items.find((c: { id: string }) => c.id === id);
      expect(row).toBeDefined();
      expect(row).not.toEqual(before.body.items.find((c: { id: string }) => c.id === id));
    });

    it('adding a user keeps the overdue list and reads the users list again', async () => {
      await readFor('/api/staff/overdue');
      expect((await readFor('/api/staff/overdue')).read).toBe(false);
      const phone = t.nextPhone();
      expect((await readFor(`/api/admin/users?phone=${phone}`)).body.items).toEqual([]);
      const username = t.nextUsername('added');
      await addStaff(admin, { username, phone, role: 'finance' });
      expect((await readFor('/api/staff/overdue')).read).toBe(false);
      const users = await readFor(`/api/admin/users?phone=${phone}`);
      expect(users.read).toBe(true);
      expect(users.body.items.map((u: { username: string }) => u.username)).toEqual([username]);
    });

    it('a name search keeps its answer across a change to another borrower, and reads again on a change to its own', async () => {
      // Names of this test alone (other tests' rows never contain them): neither contains the other.
      const tag = t.nextPhone().slice(-7);
      const [ayla, bert, cora] = [`Ayla Quinto ${tag}`, `Bert Ramos ${tag}`, `Cora Lim ${tag}`];
      const a = await seedBorrowerWithApplication(t, { fullName: ayla });
      const b = await seedBorrowerWithApplication(t, { fullName: bert });
      await t.deps.answerCache.caughtUp();
      const search = (name: string) => `/api/staff/applications/pending?name=${encodeURIComponent(name)}`;
      const names = async (url: string) => {
        const answer = await readFor(url);
        return { read: answer.read, names: answer.body.items.map((i: { fullName: string }) => i.fullName) };
      };
      // Case aside, as the search compares.
      const ofAyla = search(`QUINTO ${tag}`);
      expect(await names(ofAyla)).toEqual({ read: true, names: [ayla] });
      expect(await names(search(bert))).toEqual({ read: true, names: [bert] });
      expect(await names(ofAyla)).toEqual({ read: false, names: [ayla] });
      await readFor('/api/staff/applications/pending');

      // Bert's application decided: the search for Ayla cannot hold it, before or after.
      const rejected = await admin.post(`/api/staff/applications/${b.id}/reject`, {
        reason: 'Income unverified',
      });
      expect(rejected.status, rejected.text).toBe(200);
      expect(await names(ofAyla)).toEqual({ read: false, names: [ayla] });
      expect(await names(search(bert))).toEqual({ read: true, names: [] });
      expect((await readFor('/api/staff/applications/pending')).read).toBe(true);

      // Ayla renamed by SQL (the triggers announce the name before and after): her old search and a search for
      // the new name read again; Bert's (which holds neither) keeps its answer.
      expect(await names(search(cora))).toEqual({ read: true, names: [] });
      await t.db.updateTable('applications').set({ full_name: cora }).where('id', '=', a.id).execute();
      await t.deps.answerCache.caughtUp();
      expect(await names(ofAyla)).toEqual({ read: true, names: [] });
      expect(await names(search(cora))).toEqual({ read: true, names: [cora] });
      expect(await names(search(bert))).toEqual({ read: false, names: [] });
    });

    it('random writes and reads: every answer is what an uncached read gives at that moment', async () => {
      // The same database through an app that keeps nothing: the answer every read must equal.
      const plain: App = await buildApp({
        config: testConfig({ staffAnswerCacheMs: 0 }),
        db: t.db,
        dbKind: t.kind,
        logger: false,
      });
      const cookie = [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const complaints = [await complaint(), await complaint()];
      const staff = await Promise.all([1, 2].map(() => t.createUser({ role: 'officer' })));
      // Two running loans whose borrowers share a surname of this test's own, searched by full name, by the
      // surname, and by a name only a rename gives; their rows changed by payouts and renames.
      const tag = t.nextPhone().slice(-7);
      const borrowerNames = [`Dana Pulido ${tag}`, `Eli Pulido ${tag}`, `Fay Ocampo ${tag}`];
      const loans = await Promise.all(
        borrowerNames
          .slice(0, 2)
          .map((fullName) => seedBorrowerWithApplication(t, { fullName, status: 'approved' })),
      );
      const searched = [`dana pulido ${tag}`, `PULIDO ${tag}`, `ocampo ${tag}`].map(encodeURIComponent);
      const lists = [
        `/api/staff/applications/approved?name=${searched[0]}`,
        `/api/staff/applications/approved?name=${searched[1]}`,
        `/api/staff/loans?name=${searched[2]}`,
        `/api/staff/loans?name=${searched[1]}`,
        `/api/staff/disbursements?name=${searched[0]}`,
        `/api/staff/disbursements?name=${searched[2]}`,
        `/api/staff/repayments?name=${searched[1]}`,
        `/api/staff/overdue?name=${searched[0]}`,
        '/api/staff/disbursements',
        '/api/admin/users',
        `/api/admin/users?phone=${staff[0]!.user.phone}`,
        '/api/staff/complaints',
        '/api/staff/overdue',
        '/api/admin/audit',
        '/api/staff/applications/pending',
        '/api/staff/applications/approved',
        '/api/staff/dashboard',
      ];
      type Write = (pick: number) => Promise<unknown>;
      const writes: Record<string, Write> = {
        'add a user': () =>
          admin.post('/api/admin/users', {
            username: t.nextUsername('p'),
            password: 'temporary-pass-1',
            phone: t.nextPhone(),
            role: 'finance',
          }),
        'change a user': (pick) =>
          admin.post(`/api/admin/users/${staff[pick % 2]!.user.id}`, {
            phone: t.nextPhone(),
            password: 'temporary-pass-2',
          }),
        'reply to a complaint': (pick) =>
          admin.post(`/api/staff/complaints/${complaints[pick % 2]}/replies`, { message: `reply ${pick}` }),
        'a wrong password': (pick) =>
          t
            .agent()
            .post('/api/auth/login', { identifier: staff[pick % 2]!.user.username, password: 'wrong' }),
        'pay out a loan': async (pick) => {
          await seedPaidDisbursement(t.db, loans[pick % 2]!.id, { reference: `P-${tag}-${Math.random()}` });
          await t.deps.answerCache.caughtUp();
        },
        'rename a borrower': async (pick) => {
          await t.db
            .updateTable('applications')
            .set({ full_name: borrowerNames[pick % 3]! })
            .where('id', '=', loans[pick % 2]!.id)
            .execute();
          await t.deps.answerCache.caughtUp();
        },
        'file an application': async () => {
          await seedBorrowerWithApplication(t);
          // Not a write request of this app: wait until its announcement is heard, as a request would.
          await t.deps.answerCache.caughtUp();
        },
      };
      const step = fc.oneof(
        fc.record({ write: fc.constantFrom(...Object.keys(writes)), pick: fc.nat(9) }),
        fc.record({ read: fc.constantFrom(...lists) }),
      );
      try {
        await fc.assert(
          fc.asyncProperty(fc.array(step, { minLength: 3, maxLength: 10 }), async (steps) => {
            for (const s of steps) {
              if ('write' in s) {
                await writes[s.write]!(s.pick);
                continue;
              }
              const kept = await admin.get(s.read);
              const fresh = await plain.inject({ method: 'GET', url: s.read, headers: { cookie } });
              expect(kept.status, kept.text).toBe(200);
              expect(kept.body, s.read).toEqual(fresh.json());
            }
          }),
          { numRuns: 25 },
        );
      } finally {
        await plain.close();
      }
    });
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
    // Only the statements that make a kept answer: the session check before it is not part of it (and is
    // itself cached for a moment, so whether it runs in a given request depends on the machine's speed).
    const executor = t.db.getExecutor();
    const execute = executor.executeQuery.bind(executor);
    const answerStatements: string[] = [];
    let answering = false;
    const statements = vi.spyOn(executor, 'executeQuery').mockImplementation((query, ...rest) => {
      if (answering) answerStatements.push(query.sql);
      return execute(query, ...rest);
    });
    const cache = t.deps.answerCache;
    const get = cache.get.bind(cache);
    const kept = vi.spyOn(cache, 'get').mockImplementation((key, reads, read, scope) =>
      get(
        key,
        reads,
        async () => {
          answering = true;
          try {
            return await read();
          } finally {
            answering = false;
          }
        },
        scope,
      ),
    );
    const readBy = new Map<string, Set<string>>();
    const declared = new Map<string, Set<string>>();
    try {
      for (const path of paths) {
        // Each as it is, and with a search, which some lists read another way.
        for (const url of [path, `${path}?name=a&phone=1&actor=a&q=a`]) {
          t.deps.answerCache.clear();
          answerStatements.length = 0;
          kept.mockClear();
          const answer = await admin.get(url);
          if (kept.mock.calls.length === 0) continue;
          expect(answer.status, `${url}: ${answer.text}`).toBe(200);
          const text = answerStatements.join('\n');
          const says = declared.get(path) ?? new Set<string>();
          for (const [, reads] of kept.mock.calls) for (const table of reads) says.add(table);
          declared.set(path, says);
          const tables = readBy.get(path) ?? new Set<string>();
          for (const table of tableNames)
            if (new RegExp(`"${table}"|\\b${table}\\b`).test(text))
              // The names' word starts are covered by the announcements of the applications they come from.
              tables.add(
                (DERIVED_FROM_APPLICATIONS as readonly string[]).includes(table) ? 'applications' : table,
              );
          readBy.set(path, tables);
        }
      }
    } finally {
      statements.mockRestore();
      kept.mockRestore();
    }
    // Every list and the dashboard's two answers: the check cannot pass by finding none.
    expect(readBy.size).toBeGreaterThanOrEqual(13);
    // What each route says it reads is what its SQL reads: a table left out would keep a stale answer.
    const sorted = (map: Map<string, Set<string>>) =>
      Object.fromEntries([...map].map(([path, tables]) => [path, [...tables].sort()]));
    expect(sorted(declared)).toEqual(sorted(readBy));
    const unannounced = [...readBy].flatMap(([path, tables]) =>
      [...tables]
        .filter((table) => !(ANNOUNCING_TABLES as readonly string[]).includes(table))
        .map((table) => `${path}: ${table}`),
    );
    expect(unannounced).toEqual([]);
  });

  it('every table either announces its changes or is named as read by no answer', async () => {
    const { rows: tables } = await sql<{ name: string }>`
      select table_name as name from information_schema.tables
      where table_schema = 'public' and table_type = 'BASE TABLE' and table_name not like 'kysely_%'
      order by 1`.execute(t.db);
    expect(tables.map((r) => r.name)).toEqual(
      [...ANNOUNCING_TABLES, ...NOT_READ_BY_ANSWERS, ...DERIVED_FROM_APPLICATIONS].sort(),
    );
    const { rows: announcing } = await sql<{ name: string }>`
      select c.relname as name from pg_trigger tg join pg_class c on c.oid = tg.tgrelid
      where tg.tgname = c.relname || '_answers_changed' order by 1`.execute(t.db);
    expect(announcing.map((r) => r.name)).toEqual([...ANNOUNCING_TABLES].sort());
    // Each announces every kind of change: insert, update, delete and truncate (a statement trigger's type
    // bits 4, 16, 8, 32), by migration 034's function or by 043's that name the borrowers.
    const { rows: events } = await sql<{ name: string; events: number }>`
      select c.relname as name, bit_or(tg.tgtype::int & 60) as events
      from pg_trigger tg join pg_class c on c.oid = tg.tgrelid join pg_proc p on p.oid = tg.tgfoid
      where p.proname = 'hiram_notify_answers_changed' or p.proname like 'hiram_announce_%'
      group by 1 order by 1`.execute(t.db);
    expect(events).toEqual([...ANNOUNCING_TABLES].sort().map((name) => ({ name, events: 60 })));
  });
});

describe.skipIf(!onPostgres)('back-office answers across two instances on one PostgreSQL', () => {
  let t: TestApp;
  let admin: Agent;
  let other: App;
  let closeOther: () => Promise<void>;
  beforeAll(async () => {
    t = await createTestApp({ config: LONG, postgresEvents: true });
    admin = await t.signInStaff('admin');
    ({ app: other, close: closeOther } = await secondInstance(t, LONG));
  });
  afterAll(async () => {
    await closeOther?.();
    await t.close();
  });

  it('a write on one instance: the other forgets the answers reading what it changed, and keeps the rest', async () => {
    const cookie = [...admin.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
    const onOther = async (url: string) => {
      const answer = await other.inject({ method: 'GET', url, headers: { cookie } });
      expect(answer.statusCode, answer.body).toBe(200);
      return answer.json();
    };
    const phone = t.nextPhone();
    const users = `/api/admin/users?phone=${phone}`;
    // Both kept on the other instance, once it has heard every announcement so far.
    await other.deps.answerCache.caughtUp();
    other.deps.answerCache.clear();
    expect((await onOther(users)).items).toEqual([]);
    const overdue = await onOther('/api/staff/overdue');
    // The users list, the overdue page and the overdue bucket counts.
    expect(other.deps.answerCache.size).toBe(3);

    const username = t.nextUsername('elsewhere');
    await addStaff(admin, { username, phone, role: 'officer' });
    // Once the other instance has heard what was committed before now (a moment later), its next request
    // reads the users list again, and still answers the overdue list from what it kept.
    await other.deps.answerCache.caughtUp();
    expect(other.deps.answerCache.size).toBe(2);
    expect((await onOther(users)).items.map((u: { username: string }) => u.username)).toEqual([username]);
    expect(await onOther('/api/staff/overdue')).toEqual(overdue);
    expect(other.deps.answerCache.size).toBe(3);
  });
});
