import type { PGlite } from '@electric-sql/pglite';
import {
  AbortedTransactionError,
  CompiledQuery,
  type DatabaseConnection,
  type Dialect,
  type Driver,
  type Kysely,
  PostgresAdapter,
  PostgresIntrospector,
  PostgresQueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

const raw = (sql: string) => CompiledQuery.raw(sql);

/**
 * Kysely over PGlite. PGlite has one connection and runs one query at a time, so the driver hands out
 * that single connection behind a FIFO lock: a transaction holds it from BEGIN to COMMIT and every other
 * query waits. That serialises all work, which is correct (nothing interleaves inside a transaction) but
 * means concurrency behaviour must also be tested on real PostgreSQL.
 */
export class PGliteDialect implements Dialect {
  constructor(private readonly pglite: PGlite) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}

class PGliteConnection implements DatabaseConnection {
  constructor(private readonly pglite: PGlite) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = await this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  // biome-ignore lint/correctness/useYield: streaming is not supported; the method exists to satisfy the interface
  async *streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error('PGlite driver does not support streaming queries');
  }
}

class PGliteDriver implements Driver {
  private readonly connection: PGliteConnection;
  private queue: Promise<void> = Promise.resolve();
  private release: (() => void) | null = null;

  constructor(private readonly pglite: PGlite) {
    this.connection = new PGliteConnection(pglite);
  }

  async init() {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const previous = this.queue;
    let unlock!: () => void;
    this.queue = new Promise<void>((resolve) => {
      unlock = resolve;
    });
    await previous;
    this.release = unlock;
    return this.connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings) {
    // Isolation level and access mode, as Kysely's PostgresDriver sends them, so both backends agree.
    const isolation = settings.isolationLevel ? ` isolation level ${settings.isolationLevel}` : '';
    const accessMode = settings.accessMode ? ` ${settings.accessMode}` : '';
    await connection.executeQuery(raw(`begin${isolation}${accessMode}`));
  }
  async commitTransaction() {
    // PostgreSQL answers COMMIT of a transaction that an earlier error aborted with ROLLBACK; fail like
    // Kysely's PostgresDriver does, instead of reporting success for writes that were thrown away.
    const result = await this.pglite.query('commit');
    if (result.command === 'ROLLBACK') throw new AbortedTransactionError();
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    await connection.executeQuery(raw('rollback'));
  }

  async releaseConnection() {
    const unlock = this.release;
    this.release = null;
    unlock?.();
  }

  async destroy() {
    await this.queue;
    if (!this.pglite.closed) await this.pglite.close();
  }
}
