import { type Kysely, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase, createTestApp, type TestApp, testDbKind } from '../test-support/test-app';
import { type OpenDatabase, openDatabase } from './open';
import {
  executePrepared,
  executePreparedSql,
  MAX_KEPT_PAGE_PLANS,
  preparedLookup,
  preparedNameOf,
  reusablePlan,
} from './prepared-statements';

// biome-ignore lint/suspicious/noExplicitAny: throw-away tables outside the app's schema
type AnyDb = Kysely<any>;

/** What the test now running opened, closed (and on PostgreSQL dropped) after it. */
let opened: { database: OpenDatabase; drop?: () => Promise<void> } | undefined;
afterEach(async () => {
  await opened?.database.close();
  await opened?.drop?.();
  opened = undefined;
});

/**
 * A throw-away database of one connection on the backend under test (a fresh PostgreSQL database, or PGlite in
 * memory), outside the app's schema; `preparedStatements` as the connection option (PostgreSQL).
 */
async function scratchDatabase(preparedStatements?: boolean): Promise<AnyDb> {
  if (testDbKind() === 'postgres') {
    const { url, drop } = await createPostgresDatabase();
    const database = await openDatabase({
      kind: 'postgres',
      url,
      poolSize: 1,
      ...(preparedStatements === undefined ? {} : { preparedStatements }),
    });
    opened = { database, drop };
  } else {
    opened = { database: await openDatabase({ kind: 'pglite', dataDir: null }) };
  }
  return opened.database.db as unknown as AnyDb;
}

/** The statements named on the connection the query runs on (a pool of one: always the same connection). */
async function namedOnConnection(db: AnyDb): Promise<string[]> {
  const { rows } = await sql<{ statement: string }>`select statement from pg_prepared_statements`.execute(db);
  return rows.map((r) => r.statement);
}

describe.runIf(testDbKind() === 'postgres')('named statements on PostgreSQL (executePrepared)', () => {
  async function open(preparedStatements?: boolean) {
    const db = await scratchDatabase(preparedStatements);
    await sql`create table things (id int primary key, label text not null)`.execute(db);
    await sql`insert into things values (1, 'one'), (2, 'two')`.execute(db);
    return db;
  }

  const byId = (db: AnyDb, id: number) => db.selectFrom('things').selectAll().where('id', '=', id);

  it('parses a registered lookup once per connection and answers each execution with its own values', async () => {
    const db = await open();
    expect(await executePrepared(db, byId(db, 1))).toEqual([{ id: 1, label: 'one' }]);
    expect(await executePrepared(db, byId(db, 2))).toEqual([{ id: 2, label: 'two' }]);
    expect(await executePrepared(db, byId(db, 3))).toEqual([]);
    const text = byId(db, 1).compile().sql;
    expect(preparedNameOf(text)).toMatch(/^hiram_\d+$/);
    expect(await namedOnConnection(db)).toEqual([text]);
    // Anything else still goes out unnamed.
    await db.selectFrom('things').select('label').where('label', '=', 'one').execute();
    expect(await namedOnConnection(db)).toEqual([text]);
  });

  it('names a hand-written statement too (executePreparedSql), answering each execution with its values', async () => {
    const db = await open();
    const labelOf = (id: number) => sql<{ label: string }>`select label from things where id = ${id}`;
    expect(await executePreparedSql(db, labelOf(1))).toEqual([{ label: 'one' }]);
    expect(await executePreparedSql(db, labelOf(2))).toEqual([{ label: 'two' }]);
    const text = labelOf(1).compile(db).sql;
    expect(preparedNameOf(text)).toMatch(/^hiram_\d+$/);
    expect(await namedOnConnection(db)).toEqual([text]);
  });

  it('prepares nothing when named statements are turned off (a pooler that cannot keep them)', async () => {
    const db = await open(false);
    expect(await executePrepared(db, byId(db, 1))).toEqual([{ id: 1, label: 'one' }]);
    expect(await namedOnConnection(db)).toEqual([]);
  });

  it('answers with the new columns after another instance adds one (the plan must not change result type)', async () => {
    const db = await open();
    expect(await executePrepared(db, byId(db, 1))).toEqual([{ id: 1, label: 'one' }]);
    const before = preparedNameOf(byId(db, 1).compile().sql);
    // A migration run elsewhere: the prepared `select *` would now return a row of a different shape.
    await sql`alter table things add column note text not null default 'added'`.execute(db);
    expect(await executePrepared(db, byId(db, 1))).toEqual([{ id: 1, label: 'one', note: 'added' }]);
    expect(preparedNameOf(byId(db, 1).compile().sql)).not.toBe(before);
  });

  it('inside a transaction the change aborts that attempt only; the next one prepares afresh', async () => {
    const db = await open();
    await executePrepared(db, byId(db, 2));
    await sql`alter table things add column note text`.execute(db);
    await expect(db.transaction().execute((trx) => executePrepared(trx, byId(trx, 2)))).rejects.toThrow(
      /cached plan must not change result type/,
    );
    expect(await db.transaction().execute((trx) => executePrepared(trx, byId(trx, 2)))).toEqual([
      { id: 2, label: 'two', note: null },
    ]);
  });
});

describe.runIf(testDbKind() === 'postgres')(
  'list pages kept named per connection on PostgreSQL (decision 064)',
  () => {
    async function open(preparedStatements?: boolean) {
      const db = await scratchDatabase(preparedStatements);
      await sql`create table things (id int primary key, label text not null)`.execute(db);
      await sql`insert into things select g, 'thing ' || g from generate_series(1, 50) g`.execute(db);
      return db;
    }

    /** A list's page as `pageWindow` writes it: marked, its row counts literals, no parameters. */
    const page = (db: AnyDb, offset: number) =>
      db
        .selectFrom('things')
        .modifyFront(reusablePlan)
        .selectAll()
        .orderBy('id')
        .limit(sql.lit(2))
        .offset(sql.lit(offset));

    const keptOnConnection = async (db: AnyDb) =>
      (await namedOnConnection(db)).filter((text) => text.includes('hiram:reusable-plan'));

    it('keeps a page statement named on its connection, running its one plan, and answers each execution', async () => {
      const db = await open();
      for (let i = 0; i < 3; i++) {
        expect(await page(db, 4).execute()).toEqual([
          { id: 5, label: 'thing 5' },
          { id: 6, label: 'thing 6' },
        ]);
      }
      const kept = await keptOnConnection(db);
      expect(kept).toEqual([page(db, 4).compile().sql]);
      // All three ran the one plan PostgreSQL keeps for the statement (made once), none a plan of its own.
      const { rows } = await sql<{ generic: string; custom: string }>`
      select generic_plans as generic, custom_plans as custom from pg_prepared_statements
      where statement like ${'%hiram:reusable-plan%'}`.execute(db);
      expect(rows.map((r) => [Number(r.generic), Number(r.custom)])).toEqual([[3, 0]]);
    });

    it('leaves unnamed what has parameters, is not marked, or runs inside a transaction', async () => {
      const db = await open();
      const withParameter = db.selectFrom('things').modifyFront(reusablePlan).selectAll().where('id', '=', 3);
      expect(await withParameter.execute()).toEqual([{ id: 3, label: 'thing 3' }]);
      expect(
        await db.selectFrom('things').selectAll().orderBy('id').limit(sql.lit(1)).execute(),
      ).toHaveLength(1);
      expect(await db.transaction().execute((trx) => page(trx, 0).execute())).toHaveLength(2);
      expect(await keptOnConnection(db)).toEqual([]);
    });

    it(`keeps at most ${MAX_KEPT_PAGE_PLANS} on a connection, dropping the least recently used`, async () => {
      const db = await open();
      for (let offset = 0; offset < MAX_KEPT_PAGE_PLANS + 5; offset++) {
        await page(db, offset).execute();
        // Page 0 is used again each time: it stays.
        await page(db, 0).execute();
      }
      const kept = await keptOnConnection(db);
      expect(kept).toHaveLength(MAX_KEPT_PAGE_PLANS);
      expect(kept).toContain(page(db, 0).compile().sql);
      expect(kept).toContain(page(db, MAX_KEPT_PAGE_PLANS + 4).compile().sql);
      expect(kept).not.toContain(page(db, 1).compile().sql);
      // Each page still answers with its own rows, whether kept or dropped.
      expect(await page(db, 1).execute()).toEqual([
        { id: 2, label: 'thing 2' },
        { id: 3, label: 'thing 3' },
      ]);
    });

    it('answers when its statement was dropped behind its back, or its columns changed, and keeps it again', async () => {
      const db = await open();
      await page(db, 0).execute();
      await sql`deallocate all`.execute(db);
      expect(await page(db, 0).execute()).toHaveLength(2);
      expect(await page(db, 0).execute()).toHaveLength(2);
      expect(await keptOnConnection(db)).toHaveLength(1);
      await sql`alter table things add column note text not null default 'added'`.execute(db);
      expect((await page(db, 0).execute())[0]).toEqual({ id: 1, label: 'thing 1', note: 'added' });
      expect((await page(db, 0).execute())[0]).toEqual({ id: 1, label: 'thing 1', note: 'added' });
      expect(await keptOnConnection(db)).toHaveLength(1);
    });

    it('names nothing when named statements are turned off', async () => {
      const db = await open(false);
      await page(db, 0).execute();
      await page(db, 0).execute();
      expect(await keptOnConnection(db)).toEqual([]);
    });
  },
);

describe('lookups compiled once (preparedLookup)', () => {
  async function open() {
    const db = await scratchDatabase();
    await sql`create table tags (code text primary key, kind text not null, label text not null)`.execute(db);
    await sql`insert into tags values ('a', 'shown', 'Alpha'), ('b', 'shown', 'Beta'), ('c', 'hidden', 'Gamma')`.execute(
      db,
    );
    return db;
  }

  it('sends each key in its own place beside the query’s other values, and builds the query once', async () => {
    const db = await open();
    let builds = 0;
    const byCode = preparedLookup((d: AnyDb, code: string) => {
      builds += 1;
      // A value before the key, as the profile's join has one.
      return d.selectFrom('tags').select('label').where('kind', '=', 'shown').where('code', '=', code);
    });
    expect(await byCode(db, 'a')).toEqual([{ label: 'Alpha' }]);
    expect(await byCode(db, 'b')).toEqual([{ label: 'Beta' }]);
    expect(await byCode(db, 'c')).toEqual([]);
    expect(await byCode(db, "a' or '1'='1")).toEqual([]);
    expect(builds).toBe(1);
  });

  it('refuses a query that does not use its key exactly once', async () => {
    const db = await open();
    const twice = preparedLookup((d: AnyDb, code: string) =>
      d.selectFrom('tags').select('label').where('code', '=', code).where('label', '!=', code),
    );
    await expect(twice(db, 'a')).rejects.toThrow(/exactly once/);
  });
});

describe.runIf(testDbKind() === 'pglite')(
  'back-office lists keep their plans on PGlite (decision 028)',
  () => {
    let t: TestApp | undefined;
    afterEach(async () => {
      await t?.close();
      t = undefined;
    });

    it("a list's page is prepared once and served from it; a search is planned for its own terms", async () => {
      // Every request reads: with the answer cache on (decision 030) the same page asked again is not read.
      t = await createTestApp({ config: { staffAnswerCacheMs: 0 } });
      const officer = await t.signInStaff('officer');
      const keptLists = async () =>
        (
          await sql<{ statement: string; plans: number }>`
          select statement, generic_plans + custom_plans as plans from pg_prepared_statements
          where statement like ${'%hiram:reusable-plan%'}`.execute(t!.db)
        ).rows;
      for (let i = 0; i < 3; i++) {
        const page = await officer.get('/api/staff/applications/pending');
        expect(page.status).toBe(200);
        expect(page.body.items).toEqual([]);
      }
      const kept = await keptLists();
      expect(kept).toHaveLength(1);
      expect(kept[0]!.statement).toMatch(/from "applications"/);
      expect(Number(kept[0]!.plans)).toBe(3);
      expect((await officer.get('/api/staff/applications/pending?name=maria')).status).toBe(200);
      expect(await keptLists()).toHaveLength(1);
    });
  },
);
