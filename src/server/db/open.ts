import { closeSync, mkdirSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { Migrator } from 'kysely/migration';
import { migrations } from './migrations';
import { PGliteDialect } from './pglite-dialect';
import { seedFromTemplate } from './pglite-template';
import { preparingClient } from './prepared-statements';
import type { Database } from './schema';

export type DbKind = 'pglite' | 'postgres';

export interface OpenDatabase {
  db: Kysely<Database>;
  kind: DbKind;
  close(): Promise<void>;
  /** PostgreSQL only: the pool's connections (total, idle) and waiting requests, for /metrics. */
  poolStats?: () => { total: number; idle: number; waiting: number };
  /**
   * PGlite only: hear NOTIFY on a channel (its one connection delivers them when the notifying transaction
   * commits, before that statement's promise settles). On PostgreSQL the event bus keeps a listening connection.
   */
  listen?: (channel: string, handler: (payload: string) => void) => Promise<() => Promise<void>>;
}

export type DatabaseTarget =
  // preparedStatements: false for a connection pooler that cannot keep named statements (PgBouncer < 1.21 in
  // transaction mode); on by default (db/prepared-statements.ts).
  | { kind: 'postgres'; url: string; poolSize?: number; preparedStatements?: boolean }
  // dataDir null: in memory (tests). loadDataDir: start from a dump (PGlite dumpDataDir), e.g. a migrated template.
  // template: a migrated data directory copied in on a first start (db/pglite-template.ts).
  // sharedBuffers: PostgreSQL's shared_buffers (128MB unless given); the API tests' small databases take
  // 16MB, which makes each test app's start ~30 % cheaper (docs/decisions/055).
  | { kind: 'pglite'; dataDir: string | null; loadDataDir?: Blob; template?: string; sharedBuffers?: string };

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** int8 (counts, sums of minor units) as a JS number on both backends; refuse silent precision loss. */
function parseInt8(value: string): number {
  const n = Number(value);
  if (!Number.isSafeInteger(n)) throw new Error(`int8 value ${value} exceeds the safe integer range`);
  return n;
}

/** Where PGlite keeps the cluster inside DATA_DIR: absent until a first start puts it there. */
export const pgliteDataPath = (dataDir: string) => join(dataDir, 'pgdata');

export async function openDatabase(target: DatabaseTarget): Promise<OpenDatabase> {
  if (target.kind === 'postgres') {
    // Loaded here, not at the top: a PGlite start never needs pg (issue #35).
    const { default: pg } = await import('pg');
    const pool = new pg.Pool({
      connectionString: target.url,
      max: target.poolSize ?? 10,
      ...(target.preparedStatements === false ? {} : { Client: preparingClient(pg.Client) }),
      types: {
        getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
          oid === INT8_OID
            ? parseInt8
            : pg.types.getTypeParser(oid, format ?? 'text')) as typeof pg.types.getTypeParser,
      },
    });
    // An idle client whose connection drops (a PostgreSQL restart or failover, a proxy's idle timeout) is
    // reported on the pool; unheard, that event would end the process. The pool has already let the client
    // go and the next query opens a fresh connection, so it is logged, not fatal.
    pool.on('error', (error) => {
      console.warn(`PostgreSQL: an idle connection closed (${error.message}); the next query reconnects.`);
    });
    const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
    return {
      db,
      kind: 'postgres',
      close: () => db.destroy(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    };
  }

  let releaseLock = () => {};
  let dataPath: string | undefined;
  if (target.dataDir) {
    mkdirSync(target.dataDir, { recursive: true });
    releaseLock = lockDataDir(target.dataDir);
    dataPath = pgliteDataPath(target.dataDir);
    if (target.template) {
      try {
        await seedFromTemplate(dataPath, target.template);
      } catch (error) {
        releaseLock();
        throw error;
      }
    }
  }
  try {
    const pglite = await PGlite.create(dataPath, {
      extensions: { pg_trgm },
      parsers: { [INT8_OID]: parseInt8, [NUMERIC_OID]: (v: string) => v },
      ...(target.loadDataDir ? { loadDataDir: target.loadDataDir } : {}),
      ...(target.sharedBuffers
        ? { startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${target.sharedBuffers}`] }
        : {}),
    });
    const db = new Kysely<Database>({ dialect: new PGliteDialect(pglite) });
    return {
      db,
      kind: 'pglite',
      listen: (channel, handler) => pglite.listen(channel, handler),
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
 * PGlite's files must be opened by one process only; a second one would corrupt them. A lock file guards
 * the data dir. It names its holder by pid, host and (on Linux) the process's start time, so a lock is taken
 * over only when it is provably stale (issue #15): its process is gone, or its pid now belongs to another
 * program (started at another time), or the file holds no lock at all (empty or garbage, and not being
 * written just now). Anything it cannot prove stale is refused, with what to do.
 */
function lockDataDir(dataDir: string): () => void {
  const lockPath = resolve(dataDir, 'hiram.lock');
  const inUse = (holder: string) =>
    new Error(
      `The data directory ${dataDir} is in use by another Hiram process (${holder}). ` +
        'Stop it first, or set DATA_DIR to another directory. If no Hiram process uses it any more, ' +
        `delete ${lockPath} and start again.`,
    );
  if (heldLocks.has(lockPath)) throw inUse(`pid ${process.pid}`);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const fd = openSync(lockPath, 'wx');
      writeSync(fd, JSON.stringify(lockHolder(process.pid)));
      closeSync(fd);
      heldLocks.add(lockPath);
      return () => {
        heldLocks.delete(lockPath);
        rmSync(lockPath, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const verdict = judgeLock(lockPath);
      if (verdict === 'held') throw inUse(describeLock(lockPath));
      // A lock file younger than a moment may be being written by its new holder: look again shortly.
      if (verdict === 'fresh') Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, FRESH_LOCK_MS);
      else rmSync(lockPath, { force: true });
    }
  }
  throw inUse(describeLock(lockPath));
}

/** How long a holder may take between creating the lock file and writing it. */
const FRESH_LOCK_MS = 2000;

interface LockHolder {
  pid: number;
  host: string;
  /** The process's start time in clock ticks since boot (Linux /proc), or null elsewhere. */
  started: string | null;
}

function lockHolder(pid: number): LockHolder {
  return { pid, host: hostname(), started: processStart(pid) };
}

/** Field 22 of /proc/<pid>/stat (after the parenthesised command name), or null when unreadable. */
function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function readLock(lockPath: string): LockHolder | null {
  try {
    const text = readFileSync(lockPath, 'utf8').trim();
    // Older versions wrote the bare pid.
    const parsed: unknown = /^\d+$/.test(text)
      ? { pid: Number(text), host: hostname(), started: null }
      : JSON.parse(text);
    const lock = parsed as Partial<LockHolder>;
    if (!Number.isSafeInteger(lock.pid) || (lock.pid ?? 0) <= 0 || typeof lock.host !== 'string') return null;
    return {
      pid: lock.pid!,
      host: lock.host,
      started: typeof lock.started === 'string' ? lock.started : null,
    };
  } catch {
    return null;
  }
}

function judgeLock(lockPath: string): 'held' | 'stale' | 'fresh' {
  const lock = readLock(lockPath);
  if (!lock) {
    try {
      return Date.now() - statSync(lockPath).mtimeMs < FRESH_LOCK_MS ? 'fresh' : 'stale';
    } catch {
      return 'stale';
    }
  }
  // Another machine's process (a shared disk): this one cannot see it, so cannot prove it gone.
  if (lock.host !== hostname()) return 'held';
  if (!isAlive(lock.pid)) return 'stale';
  // Our own pid, but not one of our locks: the pid was reused after a crash (e.g. in a container).
  if (lock.pid === process.pid) return 'stale';
  // The pid is alive: stale only if it now belongs to a process started at another time.
  const started = processStart(lock.pid);
  if (lock.started !== null && started !== null && started !== lock.started) return 'stale';
  return 'held';
}

function describeLock(lockPath: string): string {
  const lock = readLock(lockPath);
  if (!lock) return 'unknown holder';
  return lock.host === hostname() ? `pid ${lock.pid}` : `pid ${lock.pid} on ${lock.host}`;
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
      // The usual start: every migration has run. Kysely's migrator would first look its two tables up
      // through a full catalog introspection (a fifth of a second on PGlite, issue #35); one query says
      // the same. Anything else (an empty database, pending, unknown or out-of-order names) is its job.
      if (await upToDate(connection)) return [];
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
 * True when the database has run exactly this code base's migrations, in the order Kysely's migrator
 * checks (by run time, then name): the case in which the migrator would do nothing and report nothing.
 */
async function upToDate(db: Kysely<Database>): Promise<boolean> {
  const { rows: table } = await sql<{ present: boolean }>`
    select to_regclass('kysely_migration') is not null and to_regclass('kysely_migration_lock') is not null
      as present`.execute(db);
  if (!table[0]?.present) return false;
  const { rows } = await sql<{ name: string; timestamp: string }>`
    select name, timestamp from kysely_migration`.execute(db);
  const ran = rows
    .map((row) => ({ name: row.name, at: new Date(row.timestamp).getTime() }))
    .sort((a, b) => (a.at === b.at ? a.name.localeCompare(b.name) : a.at - b.at));
  const expected = Object.keys(migrations).sort();
  return (
    ran.length === expected.length && ran.every((row, i) => row.name === expected[i] && !Number.isNaN(row.at))
  );
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
