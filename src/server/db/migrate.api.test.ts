import { type KyselyPlugin, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase, testDbKind } from '../test-support/test-app';
import { migrations } from './migrations';
import { migrateToLatest, type OpenDatabase, openDatabase, pendingMigrations } from './open';

const allNames = Object.keys(migrations);

// PGlite is one process with one connection: there is nobody to race. Several instances share PostgreSQL.
describe.skipIf(testDbKind() !== 'postgres')('migrations when several instances start at once', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  async function emptyDatabase(): Promise<string> {
    const created = await createPostgresDatabase();
    cleanups.push(created.drop);
    return created.url;
  }

  async function open(url: string): Promise<OpenDatabase> {
    const database = await openDatabase({ kind: 'postgres', url, poolSize: 2 });
    cleanups.push(() => database.close());
    return database;
  }

  it('N migrators on an empty database: all succeed, one applies every migration, the rest none', async () => {
    const url = await emptyDatabase();
    const instances = await Promise.all(Array.from({ length: 6 }, () => open(url)));
    const applied = await Promise.all(instances.map((instance) => migrateToLatest(instance.db)));

    const appliers = applied.filter((names) => names.length > 0);
    expect(appliers).toEqual([allNames]);
    expect(applied.filter((names) => names.length === 0)).toHaveLength(instances.length - 1);
    const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
      instances[0]!.db,
    );
    expect(rows.rows.map((r) => r.name)).toEqual(allNames);
    for (const instance of instances) expect(await pendingMigrations(instance.db)).toEqual([]);
  });

  it('a migrator waits while another holds the lock, touching nothing (not even its own tables)', async () => {
    const url = await emptyDatabase();
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    cleanups.push(() => holder.end());
    await holder.query(`select pg_advisory_lock(hashtext('hiram:migrations'))`);

    const instance = await open(url);
    let done = false;
    const migrating = migrateToLatest(instance.db).finally(() => {
      done = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 700));
    expect(done).toBe(false);
    const tables = await holder.query(`select to_regclass('kysely_migration') as t`);
    expect(tables.rows[0].t).toBeNull();
    expect(await pendingMigrations(instance.db)).toEqual(allNames);

    await holder.query(`select pg_advisory_unlock(hashtext('hiram:migrations'))`);
    expect(await migrating).toEqual(allNames);
    expect(await pendingMigrations(instance.db)).toEqual([]);
  });
});

describe('migrateToLatest on a database that is behind, current or ahead of this code', () => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  });

  /** An empty database of the suite's kind, opened through a plugin that counts the statements sent. */
  async function emptyDatabase() {
    let database: OpenDatabase;
    if (testDbKind() === 'postgres') {
      const created = await createPostgresDatabase();
      cleanups.push(created.drop);
      database = await openDatabase({ kind: 'postgres', url: created.url, poolSize: 2 });
    } else {
      database = await openDatabase({ kind: 'pglite', dataDir: null });
    }
    cleanups.push(() => database.close());
    const counter = { statements: 0 };
    const counting: KyselyPlugin = {
      transformQuery: (args) => {
        counter.statements++;
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    return { db: database.db.withPlugin(counting), counter };
  }

  it('applies what is pending; when nothing is, answers with a few statements; refuses what Kysely refuses', async () => {
    const { db, counter } = await emptyDatabase();
    const last = allNames.at(-1)!;
    // A database one migration behind, as an instance of the previous release leaves it.
    const behind = await new Migrator({ db, provider: { getMigrations: async () => migrations } }).migrateTo(
      allNames.at(-2)!,
    );
    expect(behind.error).toBeUndefined();
    expect(await pendingMigrations(db)).toEqual([last]);
    expect(await migrateToLatest(db)).toEqual([last]);

    // Up to date: the lock, one look at the bookkeeping tables, one read of the names, the unlock.
    counter.statements = 0;
    expect(await migrateToLatest(db)).toEqual([]);
    expect(counter.statements).toBeLessThanOrEqual(4);

    // A name this code does not know (a newer release migrated this database): refused, as before.
    await sql`insert into kysely_migration (name, timestamp) values ('999-from-a-newer-release', ${new Date().toISOString()})`.execute(
      db,
    );
    await expect(migrateToLatest(db)).rejects.toThrow(/999-from-a-newer-release is missing/);
    await sql`delete from kysely_migration where name = '999-from-a-newer-release'`.execute(db);

    // Run out of order (the first migration recorded last): refused, as before.
    const first = allNames[0]!;
    const { rows } = await sql<{ timestamp: string }>`
      select timestamp from kysely_migration where name = ${first}`.execute(db);
    await sql`update kysely_migration set timestamp = ${new Date(Date.now() + 86_400_000).toISOString()}
      where name = ${first}`.execute(db);
    await expect(migrateToLatest(db)).rejects.toThrow(/corrupted migrations/);
    await sql`update kysely_migration set timestamp = ${rows[0]!.timestamp} where name = ${first}`.execute(
      db,
    );

    expect(await migrateToLatest(db)).toEqual([]);
    expect(await pendingMigrations(db)).toEqual([]);
  }, 120_000);
});
