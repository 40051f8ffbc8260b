import { type Kysely, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { afterEach, expect, it } from 'vitest';
import { createPostgresDatabase, testDbKind } from '../test-support/test-app';
import { migrations } from './migrations';
import { migrateToLatest, type OpenDatabase, openDatabase } from './open';
import type { Database } from './schema';

let opened: { database: OpenDatabase; drop?: () => Promise<void> } | undefined;
afterEach(async () => {
  await opened?.database.close();
  await opened?.drop?.();
  opened = undefined;
});

async function emptyDatabase(): Promise<Kysely<Database>> {
  if (testDbKind() === 'postgres') {
    const { url, drop } = await createPostgresDatabase();
    opened = { database: await openDatabase({ kind: 'postgres', url, poolSize: 1 }), drop };
  } else {
    opened = { database: await openDatabase({ kind: 'pglite', dataDir: null }) };
  }
  return opened.database.db;
}

/**
 * What the migrations made in the public schema, each object by name and definition: tables and their
 * columns, indexes, constraints, triggers, functions, sequences and types (Kysely's own two tables and the
 * extensions' objects aside).
 */
async function schemaOf(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ item: string }>`
    select 'column ' || c.table_name || '.' || c.column_name || ' ' || c.data_type || ' ' ||
           c.is_nullable || ' ' || coalesce(c.column_default, '') as item
      from information_schema.columns c
     where c.table_schema = 'public' and c.table_name not like 'kysely_migration%'
    union all
    select 'index ' || indexname || ' ' || indexdef from pg_indexes
     where schemaname = 'public' and tablename not like 'kysely_migration%'
    union all
    select 'constraint ' || conrelid::regclass || ' ' || conname || ' ' || pg_get_constraintdef(oid)
      from pg_constraint where connamespace = 'public'::regnamespace
       and conrelid::regclass::text not like 'kysely_migration%'
    union all
    select 'trigger ' || tgrelid::regclass || ' ' || tgname || ' ' || pg_get_triggerdef(oid)
      from pg_trigger where not tgisinternal
    union all
    select 'function ' || p.oid::regprocedure || ' ' || md5(pg_get_functiondef(p.oid))
      from pg_proc p where p.pronamespace = 'public'::regnamespace and p.prokind in ('f', 'p')
       -- An extension's own (pg_trgm's): the extension stays, as a database's owner may use it too.
       and not exists (select 1 from pg_depend d where d.objid = p.oid and d.deptype = 'e')
    union all
    select 'relation ' || relkind::text || ' ' || relname from pg_class
     where relnamespace = 'public'::regnamespace and relname not like 'kysely_migration%'
    union all
    select 'type ' || typname from pg_type
     where typnamespace = 'public'::regnamespace and typtype in ('e', 'd', 'r')
  `.execute(db);
  // A check's list of allowed values in any order is the same check (014 writes them sorted, 012 did not).
  const anyOrder = (item: string) =>
    item.replace(/ARRAY\[([^\]]*)\]/g, (_, list: string) => `ARRAY[${list.split(', ').sort().join(', ')}]`);
  return rows.map((r) => anyOrder(r.item)).sort();
}

it('undoes each migration, newest first, back to the schema before it, down to none; then builds it all again', async () => {
  const db = await emptyDatabase();
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const names = Object.keys(migrations);
  // The schema before each migration, and after the last.
  const before: string[][] = [];
  for (const name of names) {
    before.push(await schemaOf(db));
    const step = await migrator.migrateUp();
    expect(step.error, name).toBeUndefined();
    expect(step.results?.map((r) => `${r.migrationName} ${r.direction} ${r.status}`)).toEqual([
      `${name} Up Success`,
    ]);
  }
  const latest = await schemaOf(db);
  expect(latest.length).toBeGreaterThan(100);

  for (const [i, name] of [...names.entries()].reverse()) {
    const step = await migrator.migrateDown();
    expect(step.error, name).toBeUndefined();
    // A migration without a down() would be skipped here, its record kept, and every later migrate refused.
    expect(step.results?.map((r) => `${r.migrationName} ${r.direction} ${r.status}`)).toEqual([
      `${name} Down Success`,
    ]);
    expect(await schemaOf(db), `after undoing ${name}`).toEqual(before[i]);
  }
  expect(before[0]).toEqual([]);

  await migrateToLatest(db);
  expect(await schemaOf(db)).toEqual(latest);
});
