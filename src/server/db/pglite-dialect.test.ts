import { PGlite } from '@electric-sql/pglite';
import { AbortedTransactionError, type Generated, Kysely, sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { KEPT_PLAN_MS, PGliteDialect } from './pglite-dialect';
import { REUSABLE_PLAN_MARK, reusablePlan } from './prepared-statements';

interface TestDb {
  counter: { id: number; n: number };
  log: { id: Generated<number>; entry: string };
}

describe('PGliteDialect', { timeout: 30_000 }, () => {
  let pglite: PGlite;
  let db: Kysely<TestDb>;
  beforeAll(async () => {
    pglite = await PGlite.create();
    db = new Kysely<TestDb>({ dialect: new PGliteDialect(pglite) });
    await sql`create table counter (id int primary key, n int not null)`.execute(db);
    await sql`create table log (id serial primary key, entry text not null)`.execute(db);
  }, 60_000);
  afterAll(() => db?.destroy());
  beforeEach(async () => {
    await sql`truncate counter, log restart identity`.execute(db);
    await db.insertInto('counter').values({ id: 1, n: 0 }).execute();
  });

  const counter = async () =>
    (await db.selectFrom('counter').select('n').where('id', '=', 1).executeTakeFirstOrThrow()).n;
  const entries = async () =>
    (await db.selectFrom('log').select('entry').orderBy('id').execute()).map((r) => r.entry);

  it('commits a transaction', async () => {
    const result = await db.transaction().execute(async (trx) => {
      await trx.updateTable('counter').set({ n: 5 }).where('id', '=', 1).execute();
      return 'ok';
    });
    expect(result).toBe('ok');
    expect(await counter()).toBe(5);
  });

  it('rolls back a transaction that throws, and rethrows the error', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('counter').set({ n: 5 }).where('id', '=', 1).execute();
        await trx.insertInto('log').values({ entry: 'inside' }).execute();
        throw new Error('boom');
      }),
    ).rejects.toThrow('boom');
    expect(await counter()).toBe(0);
    expect(await entries()).toEqual([]);
  });

  it('rolls back a transaction whose query fails, and the connection is usable afterwards', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('counter').set({ n: 7 }).where('id', '=', 1).execute();
        await trx.insertInto('counter').values({ id: 1, n: 1 }).execute(); // duplicate key
      }),
    ).rejects.toMatchObject({ code: '23505' });
    expect(await counter()).toBe(0);
    // Not stuck in an aborted transaction, and the lock was released.
    await db.insertInto('log').values({ entry: 'after' }).execute();
    expect(await entries()).toEqual(['after']);
  });

  it('a commit after a caught error fails (PostgreSQL rolled it back) instead of reporting success', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.updateTable('counter').set({ n: 3 }).where('id', '=', 1).execute();
        await trx
          .insertInto('counter')
          .values({ id: 1, n: 1 })
          .execute()
          .catch(() => {});
        return 'looks fine';
      }),
    ).rejects.toThrow(AbortedTransactionError);
    expect(await counter()).toBe(0);
    await db.insertInto('log').values({ entry: 'after' }).execute();
    expect(await entries()).toEqual(['after']);
  });

  it('a failing plain query releases the connection', async () => {
    await expect(sql`select * from no_such_table`.execute(db)).rejects.toThrow(/no_such_table/);
    await expect(sql`selec 1`.execute(db)).rejects.toThrow();
    expect(await counter()).toBe(0);
  });

  it('serialises concurrent read-modify-write transactions: no lost update, no deadlock', async () => {
    const increments = 20;
    await Promise.all(
      Array.from({ length: increments }, () =>
        db.transaction().execute(async (trx) => {
          const { n } = await trx
            .selectFrom('counter')
            .select('n')
            .where('id', '=', 1)
            .executeTakeFirstOrThrow();
          await new Promise((resolve) => setTimeout(resolve, 1)); // give others a chance to interleave
          await trx
            .updateTable('counter')
            .set({ n: n + 1 })
            .where('id', '=', 1)
            .execute();
        }),
      ),
    );
    expect(await counter()).toBe(increments);
  });

  it('a query outside the transaction waits until the transaction ends', async () => {
    let releaseTransaction!: () => void;
    const gate = new Promise<void>((resolve) => {
      releaseTransaction = resolve;
    });
    const transaction = db.transaction().execute(async (trx) => {
      await trx.insertInto('log').values({ entry: 'tx-start' }).execute();
      await gate;
      await trx.insertInto('log').values({ entry: 'tx-end' }).execute();
    });
    // Let the transaction take the connection first.
    await new Promise((resolve) => setTimeout(resolve, 20));
    const outside = db.insertInto('log').values({ entry: 'outside' }).execute();
    await new Promise((resolve) => setTimeout(resolve, 20));
    releaseTransaction();
    await Promise.all([transaction, outside]);
    expect(await entries()).toEqual(['tx-start', 'tx-end', 'outside']);
  });

  it('mixed failing and succeeding concurrent transactions all settle', async () => {
    const results = await Promise.allSettled(
      Array.from({ length: 10 }, (_, i) =>
        db.transaction().execute(async (trx) => {
          await trx
            .insertInto('log')
            .values({ entry: `t${i}` })
            .execute();
          if (i % 2 === 0) throw new Error(`fail ${i}`);
        }),
      ),
    );
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(5);
    expect(await entries()).toEqual(['t1', 't3', 't5', 't7', 't9']);
  });

  it('honours the isolation level and the read-only access mode', async () => {
    const level = await db
      .transaction()
      .setIsolationLevel('serializable')
      .execute(
        async (trx) =>
          (await sql<{ l: string }>`select current_setting('transaction_isolation') as l`.execute(trx))
            .rows[0]!.l,
      );
    expect(level).toBe('serializable');
    await expect(
      db
        .transaction()
        .setAccessMode('read only')
        .execute((trx) => trx.updateTable('counter').set({ n: 9 }).where('id', '=', 1).execute()),
    ).rejects.toThrow(/read-only/);
    expect(await counter()).toBe(0);
  });

  it('returns the number of affected rows', async () => {
    await db
      .insertInto('log')
      .values([{ entry: 'a' }, { entry: 'b' }])
      .execute();
    const result = await db.updateTable('log').set({ entry: 'z' }).executeTakeFirst();
    expect(result.numUpdatedRows).toBe(2n);
    const deleted = await db.deleteFrom('log').where('entry', '=', 'none').executeTakeFirst();
    expect(deleted.numDeletedRows).toBe(0n);
  });

  // Last: it destroys the shared instance.
  it('destroy waits for running work, then closes PGlite', async () => {
    const work = db.transaction().execute(async (trx) => {
      await new Promise((resolve) => setTimeout(resolve, 50));
      await trx.insertInto('log').values({ entry: 'late' }).execute();
      return (await trx.selectFrom('log').select('entry').execute()).map((r) => r.entry);
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await db.destroy();
    await expect(work).resolves.toEqual(['late']);
    expect(pglite.closed).toBe(true);
    await expect(db.selectFrom('log').selectAll().execute()).rejects.toThrow(/destroyed/);
  });
});

describe('PGliteDialect: kept plans (docs/decisions/028)', { timeout: 30_000 }, () => {
  let pglite: PGlite;
  let db: Kysely<TestDb>;
  const MAX = 3;
  let clock = 0;
  beforeAll(async () => {
    pglite = await PGlite.create();
    db = new Kysely<TestDb>({ dialect: new PGliteDialect(pglite, MAX, () => clock) });
    await sql`create table counter (id int primary key, n int not null)`.execute(db);
    await sql`create table log (id serial primary key, entry text not null)`.execute(db);
    await db.insertInto('counter').values({ id: 1, n: 7 }).execute();
  }, 60_000);
  afterAll(() => db?.destroy());
  beforeEach(async () => {
    await pglite.query('deallocate all');
  });

  /** What PGlite has prepared: statement text → how often each kind of plan served it. */
  const preparedNow = async () =>
    (
      await pglite.query<{ statement: string; generic_plans: number; custom_plans: number }>(
        'select statement, generic_plans, custom_plans from pg_prepared_statements order by prepare_time',
      )
    ).rows;
  const marked = (n: number) =>
    db
      .selectFrom('counter')
      .modifyFront(reusablePlan)
      .select(sql<number>`n + ${sql.lit(n)}`.as('n'));

  it('prepares a marked statement without parameters once and serves it from one plan', async () => {
    for (let i = 0; i < 4; i++) expect(await marked(1).execute()).toEqual([{ n: 8 }]);
    const prepared = await preparedNow();
    expect(prepared).toHaveLength(1);
    expect(prepared[0]!.statement).toContain(REUSABLE_PLAN_MARK);
    expect(prepared[0]!.generic_plans + prepared[0]!.custom_plans).toBe(4);
    // Unmarked, or marked with a parameter (a search term): planned for its values every time, nothing kept.
    await db.selectFrom('counter').select('n').execute();
    await db.selectFrom('counter').modifyFront(reusablePlan).select('n').where('n', '=', 7).execute();
    // Nor is anything else that merely contains a marked query: PREPARE takes queries only.
    const plan = await sql.raw(`explain ${marked(1).compile().sql}`).execute(db);
    expect(plan.rows.length).toBeGreaterThan(0);
    expect(await preparedNow()).toHaveLength(1);
  });

  it('keeps at most its limit, the least recently used going first', async () => {
    await marked(1).execute();
    await marked(2).execute();
    await marked(3).execute();
    await marked(1).execute(); // now the most recently used
    await marked(4).execute(); // evicts 2
    const prepared = (await preparedNow()).map((p) => p.statement);
    expect(prepared).toHaveLength(MAX);
    expect(prepared.some((text) => text.includes('n + 2'))).toBe(false);
    expect(prepared.some((text) => text.includes('n + 1'))).toBe(true);
    expect(await marked(2).execute()).toEqual([{ n: 9 }]);
  });

  it('prepares again when its statement was dropped behind its back or its columns changed', async () => {
    const everything = () => db.selectFrom('log').modifyFront(reusablePlan).selectAll().execute();
    await db.insertInto('log').values({ entry: 'one' }).execute();
    expect(await everything()).toEqual([{ id: 1, entry: 'one' }]);
    await pglite.query('deallocate all');
    expect(await everything()).toEqual([{ id: 1, entry: 'one' }]);
    await sql`alter table log add column note text`.execute(db);
    try {
      expect(await everything()).toEqual([{ id: 1, entry: 'one', note: null }]);
    } finally {
      await sql`alter table log drop column note`.execute(db);
    }
    // And evicting one that is already gone is no error.
    await pglite.query('deallocate all');
    for (let n = 10; n < 10 + MAX + 2; n++) expect(await marked(n).execute()).toEqual([{ n: 7 + n }]);
  });

  it('makes the plan again once it has served for a minute (the tables may have grown since)', async () => {
    const names = async () =>
      (await pglite.query<{ name: string }>('select name from pg_prepared_statements')).rows.map(
        (r) => r.name,
      );
    await marked(20).execute();
    const first = await names();
    clock += KEPT_PLAN_MS - 1;
    await marked(20).execute();
    expect(await names()).toEqual(first);
    clock += 1;
    expect(await marked(20).execute()).toEqual([{ n: 27 }]);
    const second = await names();
    expect(second).toHaveLength(1);
    expect(second).not.toEqual(first);
  });

  it('inside a transaction a statement dropped behind its back fails that transaction only', async () => {
    await marked(30).execute();
    await pglite.query('deallocate all');
    await expect(
      db.transaction().execute(async (trx) => {
        await trx.selectFrom('counter').select('n').execute();
        return trx.executeQuery(marked(30).compile());
      }),
    ).rejects.toThrow(/does not exist/);
    expect(await marked(30).execute()).toEqual([{ n: 37 }]);
  });

  it('works inside a transaction, and what a rollback did not undo stays usable', async () => {
    await expect(
      db.transaction().execute(async (trx) => {
        const rows = await trx.selectFrom('counter').modifyFront(reusablePlan).select('id').execute();
        expect(rows).toEqual([{ id: 1 }]);
        throw new Error('undo');
      }),
    ).rejects.toThrow('undo');
    expect(await db.selectFrom('counter').modifyFront(reusablePlan).select('id').execute()).toEqual([
      { id: 1 },
    ]);
    expect(await preparedNow()).toHaveLength(1);
  });
});
