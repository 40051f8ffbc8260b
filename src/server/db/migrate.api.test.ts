import { sql } from 'kysely';
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
