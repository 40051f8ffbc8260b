import type { PGlite, Results } from '@electric-sql/pglite';
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
import { isResultTypeChange, isStatementGone, keepsPlan } from './prepared-statements';

const raw = (sql: string) => CompiledQuery.raw(sql);

/** How many statements a PGlite database keeps prepared at once (~150 KB of its memory each; least recently used out first). */
export const MAX_KEPT_PLANS = 32;

/**
 * Kysely over PGlite. PGlite has one connection and runs one query at a time, so the driver hands out
 * that single connection behind a FIFO lock: a transaction holds it from BEGIN to COMMIT and every other
 * query waits. That serialises all work, which is correct (nothing interleaves inside a transaction) but
 * means concurrency behaviour must also be tested on real PostgreSQL.
 */
export class PGliteDialect implements Dialect {
  constructor(
    private readonly pglite: PGlite,
    private readonly maxKeptPlans = MAX_KEPT_PLANS,
    private readonly now: () => number = () => performance.now(),
  ) {}
  createAdapter() {
    return new PostgresAdapter();
  }
  createDriver(): Driver {
    return new PGliteDriver(this.pglite, this.maxKeptPlans, this.now);
  }
  createQueryCompiler() {
    return new PostgresQueryCompiler();
  }
  // biome-ignore lint/suspicious/noExplicitAny: Kysely's own signature
  createIntrospector(db: Kysely<any>) {
    return new PostgresIntrospector(db);
  }
}

/**
 * How long a kept plan serves before it is made again: a plan chosen while a table was small would otherwise
 * outlive its growth (PGlite has no autovacuum, and rows added do not invalidate a plan). A minute of a busy
 * list's requests share one planning.
 */
export const KEPT_PLAN_MS = 60_000;

interface Kept {
  name: string;
  preparedAt: number;
}

class PGliteConnection implements DatabaseConnection {
  /** Statements kept prepared, least recently used first. */
  private readonly kept = new Map<string, Kept>();
  private nextName = 0;
  /** Between BEGIN and COMMIT/ROLLBACK (the driver says): a failed statement has aborted the transaction. */
  inTransaction = false;

  constructor(
    private readonly pglite: PGlite,
    private readonly maxKeptPlans: number,
    private readonly now: () => number,
  ) {}

  async executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const result = keepsPlan(compiledQuery)
      ? await this.executeKept<R>(compiledQuery.sql)
      : await this.pglite.query<R>(compiledQuery.sql, [...compiledQuery.parameters]);
    return {
      rows: result.rows,
      ...(result.affectedRows !== undefined ? { numAffectedRows: BigInt(result.affectedRows) } : {}),
    };
  }

  /**
   * PGlite plans in the app's own thread, so a list's plan made afresh on every request (about half of what a
   * page costs there) holds up every other request: a marked statement is prepared once and then executed by
   * name for a minute (PREPARE and DEALLOCATE are not undone by a rollback, so the bookkeeping holds inside
   * transactions).
   */
  private async executeKept<R>(text: string): Promise<Results<R>> {
    const name = await this.prepared(text);
    try {
      return await this.pglite.query<R>(`execute ${name}`);
    } catch (error) {
      // Dropped behind our back (DEALLOCATE ALL, DISCARD ALL), or its columns changed since (a migration):
      // forgotten, and outside a transaction prepared afresh at once. Inside one the failure has aborted it:
      // its own error goes to the caller, and the next use prepares afresh.
      const gone = isStatementGone(error);
      if (!gone && !isResultTypeChange(error)) throw error;
      if (gone) this.kept.delete(text);
      if (this.inTransaction) throw error;
      if (!gone) await this.drop(text, name);
      return await this.pglite.query<R>(`execute ${await this.prepared(text)}`);
    }
  }

  private async prepared(text: string): Promise<string> {
    const known = this.kept.get(text);
    if (known !== undefined && this.now() - known.preparedAt < KEPT_PLAN_MS) {
      this.kept.delete(text);
      this.kept.set(text, known);
      return known.name;
    }
    if (known !== undefined) await this.drop(text, known.name);
    const oldest = this.kept.size >= this.maxKeptPlans ? this.kept.entries().next().value : undefined;
    if (oldest) await this.drop(oldest[0], oldest[1].name);
    const name = `hiram_plan_${this.nextName++}`;
    await this.pglite.query(`prepare ${name} as ${text}`);
    this.kept.set(text, { name, preparedAt: this.now() });
    return name;
  }

  /** Deallocates a kept statement, then forgets it (so a failure leaves both as they were). */
  private async drop(text: string, name: string) {
    // Only if it is still there: a failing DEALLOCATE would abort the transaction this may run in.
    const { rows } = await this.pglite.query('select 1 from pg_prepared_statements where name = $1', [name]);
    if (rows.length > 0) await this.pglite.query(`deallocate ${name}`);
    this.kept.delete(text);
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

  constructor(
    private readonly pglite: PGlite,
    maxKeptPlans: number,
    now: () => number,
  ) {
    this.connection = new PGliteConnection(pglite, maxKeptPlans, now);
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
    this.connection.inTransaction = true;
  }
  async commitTransaction() {
    this.connection.inTransaction = false;
    // PostgreSQL answers COMMIT of a transaction that an earlier error aborted with ROLLBACK; fail like
    // Kysely's PostgresDriver does, instead of reporting success for writes that were thrown away.
    const result = await this.pglite.query('commit');
    if (result.command === 'ROLLBACK') throw new AbortedTransactionError();
  }
  async rollbackTransaction(connection: DatabaseConnection) {
    this.connection.inTransaction = false;
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
