import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { migrations } from './migrations';
import { PGliteDialect } from './pglite-dialect';
import type { Database } from './schema';

export type DbKind = 'pglite' | 'postgres';

export interface OpenDatabase {
  db: Kysely<Database>;
  kind: DbKind;
  close(): Promise<void>;
}

export type DatabaseTarget =
  | { kind: 'postgres'; url: string; poolSize?: number }
  // dataDir null: in memory (tests). loadDataDir: start from a dump (PGlite dumpDataDir), e.g. a migrated template.
  | { kind: 'pglite'; dataDir: string | null; loadDataDir?: Blob };

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** int8 (counts, sums of minor units) as a JS number on both backends; refuse silent precision loss. */
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} exceeds the safe integer range`);
  return n;
}

export async function openDatabase(target: DatabaseTarget): Promise<OpenDatabase> {
  if (target.kind === 'postgres') {
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID
            ? parseInt8
            : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An idle pooled connection that dies (server restart, network cut) emits 'error' on the pool; unhandled,
    // it would end the process. pg drops that client and opens a new one on demand, so a warning is enough.
    pool.on('error', (error) => console.warn(`database: an idle connection failed: ${error.message}`));
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return { db, kind: 'postgres', close: () => db.destroy() };
  }

  let releaseLock = () => {};
  let dataPath: string | undefined;
  if (target.dataDir) {
    mkdirSync(target.dataDir, { recursive: true });
    releaseLock = lockDataDir(target.dataDir);
    dataPath = join(target.dataDir, 'pgdata');
  }
  try {
    const pglite = await PGlite.create(dataPath, {
      extensions: { pg_trgm },
      parsers: { [INT8_OID]: parseInt8, [NUMERIC_OID]: (v: string) => v },
      ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
    });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    return {
      db,
      kind: 'pglite',
      close: async () => {
        try {
          await db.destroy();
        } finally {
          releaseLock();
        }
      },
    };
  } catch (error) {
    releaseLock();
    throw error;
  }
}

/** Lock files this process holds: a lock with our own pid is stale (pid reuse) unless it is in here. */
const heldLocks = new Set<string>();

/**
 * PGlite's files must be opened by one process only; a second one would corrupt them. A lock file
 * holding our pid guards the data dir; a lock left by a dead process is taken over.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = resolve(dataDir, 'hiram.lock');
  const inUse = (holder: number) =>
    new Error(
      `The data directory ${dataDir} is in use by another Hiram process (pid ${holder}). ` +
        'Stop it first, or set DATA_DIR to another directory.',
    );
  if (heldLocks.has(lockPath)) throw inUse(process.pid);
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, String(process.pid));
      closeSync(fd);
      heldLocks.add(lockPath);
      return () => {
        heldLocks.delete(lockPath);
        rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number.parseInt(readFileSync(lockPath, 'utf8'), 10);
      if (Number.isInteger(holder) && holder !== process.pid && isAlive(holder)) throw inUse(holder);
      rmSync(lockPath, { force: true });
    }
  }
  throw new Error(`Could not lock the data directory ${dataDir}`);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The session-level advisory lock migrating instances queue on (hashtext, like the app's other locks). */
const migrationLock = sql`hashtext('hiram:migrations')`;

/**
 * Brings the schema up to date and returns the names of the migrations this call applied. Instances that
 * start together queue on one PostgreSQL advisory lock held around the whole migrator (including the
 * creation of its bookkeeping tables): the first applies the migrations, the others wait, then find
 * nothing left to do. The lock is a session lock on one connection, so a crashed migrator releases it
 * with its connection. On PGlite (one process) the lock is simply free.
 */
export async function migrateToLatest(db: Kysely<Database>): Promise<string[]> {
  return db.connection().execute(async (connection) => {
    await sql`select pg_advisory_lock(${migrationLock})`.execute(connection);
    try {
      const migrator = new Migrator({
        db: connection,
        provider: { getMigrations: async () => migrations },
      });
      const { error, results } = await migrator.migrateToLatest();
      const failed = results?.find((r) => r.status === 'Error');
      if (error || failed) {
        throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, {
          cause: error,
        });
      }
      return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    } finally {
      await sql`select pg_advisory_unlock(${migrationLock})`.execute(connection);
    }
  });
}

/**
 * The migrations of this code base that the database has not run yet (all of them on an empty database).
 * A database migrated by a newer release has extra names; those do not make this one pending.
 */
export async function pendingMigrations(db: Kysely<Database>): Promise<string[]> {
  const { rows } = await sql<{ present: boolean }>`
    select to_regclass('kysely_migration') is not null as present`.execute(db);
  if (!rows[0]?.present) return Object.keys(migrations);
  const applied = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
  const names = new Set(applied.rows.map((r) => r.name));
  return Object.keys(migrations).filter((name) => !names.has(name));
}
