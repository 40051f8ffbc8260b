import { type Compilable, type CompiledQuery, type Kysely, type RawBuilder, sql } from 'kysely';
import type pg from 'pg';

/**
 * Named (prepared) statements for the few lookups every request makes (the session; a record by its key).
 * Sent unnamed, PostgreSQL parses, analyses and plans a statement on every execution; for these joins the
 * planning cost ~0.2–0.5 ms of server CPU against ~0.1 ms to run them (docs/decisions/025). Named, each
 * connection parses a statement once, and after a few executions PostgreSQL keeps a generic plan.
 *
 * Opt-in, not every statement: a generic plan ignores the values, so a list whose best index depends on a
 * status value (partial indexes) or a search term must stay unnamed; a lookup by primary or unique key has
 * one right plan whatever the key.
 */
const names = new Map<string, string>();
/** Code, not data, decides which texts are named; the cap only guards against a call site whose SQL varies. */
const MAX_NAMED = 64;
let nextName = 0;

function register(text: string) {
  if (!names.has(text) && names.size < MAX_NAMED) names.set(text, `hiram_${nextName++}`);
}

/**
 * A statement whose result columns changed since it was prepared (a migration run by another instance added
 * a column to a `select *`) fails with "cached plan must not change result type" on every connection that
 * prepared it. A fresh name makes each connection prepare the statement again.
 */
function retire(text: string) {
  if (names.has(text)) names.set(text, `hiram_${nextName++}`);
}

const RESULT_TYPE_CHANGED = '0A000';
const STATEMENT_GONE = '26000';

/** A named statement's columns changed since it was prepared (on PostgreSQL and PGlite alike). */
export const isResultTypeChange = (error: unknown) =>
  (error as { code?: string }).code === RESULT_TYPE_CHANGED &&
  /cached plan must not change result type/.test((error as Error).message);

/** A named statement no longer exists on its connection (DEALLOCATE ALL, DISCARD ALL behind its back). */
export const isStatementGone = (error: unknown) => (error as { code?: string }).code === STATEMENT_GONE;

/**
 * Runs a lookup whose plan does not depend on its values (by primary or unique key) as a named statement on
 * PostgreSQL; on PGlite, or with DATABASE_PREPARED_STATEMENTS=false, it runs like any other query.
 */
export async function executePrepared<O>(
  // biome-ignore lint/suspicious/noExplicitAny: any database: the query carries its own row type
  db: Pick<Kysely<any>, 'executeQuery'>,
  query: Compilable<O>,
): Promise<O[]> {
  const compiled = query.compile();
  register(compiled.sql);
  return (await db.executeQuery(compiled)).rows;
}

/**
 * `executePrepared` for a hand-written statement (`sql`…``) whose text never changes and whose plan does not
 * hang on its values (the dashboard's summary: its only value is the time zone).
 */
export async function executePreparedSql<O>(
  // biome-ignore lint/suspicious/noExplicitAny: any database: the query carries its own row type
  db: Kysely<any>,
  query: RawBuilder<O>,
): Promise<O[]> {
  return executePrepared(db, { compile: () => query.compile(db) });
}

/** Stands for the key while a lookup is compiled; no real key looks like it. */
const KEY = '\u0000hiram-lookup-key\u0000';

/**
 * `executePrepared` for a lookup by one key, built and compiled once per database handle instead of on every
 * request (building and compiling a query of a few joins costs more CPU than sending it). Each call sends the
 * same text with its key in the place the placeholder took.
 */
export function preparedLookup<O>(
  // biome-ignore lint/suspicious/noExplicitAny: any database: the query carries its own row type
  build: (db: Kysely<any>, key: string) => Compilable<O>,
  // biome-ignore lint/suspicious/noExplicitAny: as above
): (db: Kysely<any>, key: string) => Promise<O[]> {
  const compiled = new WeakMap<object, CompiledQuery<O>>();
  return async (db, key) => {
    let query = compiled.get(db);
    if (!query) {
      query = build(db, KEY).compile();
      if (query.parameters.filter((value) => value === KEY).length !== 1) {
        throw new Error(`a prepared lookup must use its key exactly once: ${query.sql}`);
      }
      register(query.sql);
      compiled.set(db, query);
    }
    const parameters = query.parameters.map((value) => (value === KEY ? key : value));
    return (await db.executeQuery<O>({ ...query, parameters })).rows;
  };
}

/** How many parameterless list statements each PostgreSQL connection keeps named (docs/decisions/064). */
export const MAX_KEPT_PAGE_PLANS = 24;

/**
 * The pg client class the pool uses when named statements are on, made from pg's own (which only a
 * PostgreSQL start loads): a query whose text `executePrepared` registered goes out with its name. It
 * follows its own transactions so that, after a result-type change, a statement outside a transaction is
 * retried at once under a fresh name (inside one the transaction is already aborted: the error reaches the
 * caller and the next attempt prepares afresh).
 *
 * A list's page statement (marked `reusablePlan`, no parameters: its row counts and statuses are literals)
 * is kept named by the connection that runs it, outside transactions, at most `MAX_KEPT_PAGE_PLANS` of them,
 * the least recently used dropped with DEALLOCATE (docs/decisions/064). Without parameters its plan is the
 * one the text alone gives, so naming it only saves planning it again; PostgreSQL plans it afresh when a
 * table's statistics change.
 */
export function preparingClient(Client: typeof pg.Client): typeof pg.Client {
  return class PreparingClient extends Client {
    private inTransaction = false;
    /** Kept page statements: text → this connection's name for it, least recently used first. */
    private readonly kept = new Map<string, string>();
    private nextKept = 0;

    // biome-ignore lint/suspicious/noExplicitAny: pg's overloaded signature
    override query(config: any, values?: any, callback?: any): any {
      if (typeof config !== 'string') return super.query(config, values, callback);
      if (/^\s*(begin|start transaction)\b/i.test(config)) this.inTransaction = true;
      else if (/^\s*(commit|rollback|end)\s*$/i.test(config)) this.inTransaction = false;
      if (callback !== undefined || !Array.isArray(values)) return super.query(config, values, callback);
      const name = names.get(config);
      if (name === undefined) {
        if (!this.inTransaction && keepsPlan({ sql: config, parameters: values }))
          return this.keptQuery(config);
        return super.query(config, values, callback);
      }
      const named = (n: string) => super.query({ name: n, text: config, values });
      const retryOutsideTransaction = !this.inTransaction;
      return named(name).catch((error: unknown) => {
        if (!isResultTypeChange(error)) throw error;
        retire(config);
        const fresh = names.get(config);
        if (!retryOutsideTransaction || fresh === undefined) throw error;
        return named(fresh);
      });
    }

    /** pg's own record of the statements parsed on this connection (it parses a name only once). */
    private parsed(): Record<string, string> | undefined {
      return (this as unknown as { connection?: { parsedStatements?: Record<string, string> } }).connection
        ?.parsedStatements;
    }

    private async keptQuery(text: string) {
      const parsed = this.parsed();
      // A pg that keeps its parsed statements elsewhere: never name what could not be dropped again.
      if (parsed === undefined) return super.query(text, []);
      let name = this.kept.get(text);
      if (name === undefined) {
        if (this.kept.size >= MAX_KEPT_PAGE_PLANS) await this.dropKept(this.kept.keys().next().value!);
        name = `hiram_page_${this.nextKept++}`;
      }
      this.kept.delete(text);
      this.kept.set(text, name);
      try {
        return await super.query({ name, text, values: [] });
      } catch (error) {
        // Dropped behind our back (DISCARD ALL), or its columns changed since (a migration): once more,
        // unnamed; the next use prepares it afresh.
        if (!isStatementGone(error) && !isResultTypeChange(error)) throw error;
        await this.dropKept(text);
        return super.query(text, []);
      }
    }

    private async dropKept(text: string) {
      const name = this.kept.get(text);
      if (name === undefined) return;
      this.kept.delete(text);
      const parsed = this.parsed();
      if (parsed) delete parsed[name];
      // Outside a transaction (kept statements never run in one), so a name already gone aborts nothing.
      await super.query(`deallocate ${name}`).catch(() => {});
    }
  };
}

/** For tests: the name a text currently goes out under. */
export const preparedNameOf = (text: string) => names.get(text);

/** For tests: every text that goes out named. */
export const namedTexts = () => [...names.keys()];

/**
 * Put in a statement (`.modifyFront(reusablePlan)`) whose plan does not depend on anything but its text: on
 * PGlite, such a statement sent without parameters is prepared once and executed by name afterwards, so its
 * plan is kept rather than made again on every request (docs/decisions/028). The back-office lists' page
 * statements carry it; a search's terms are parameters, so a search is planned for its own terms as before.
 * On PostgreSQL each pooled connection keeps such a statement named in the same way (`preparingClient`,
 * docs/decisions/064); to PostgreSQL itself the mark is a comment.
 */
export const REUSABLE_PLAN_MARK = '/* hiram:reusable-plan */';
export const reusablePlan = sql.raw(REUSABLE_PLAN_MARK);

/**
 * Whether PGlite should keep the statement's plan: a query (what PREPARE takes; not, say, an EXPLAIN of one),
 * marked, and nothing in it comes from a parameter.
 */
export const keepsPlan = (query: Pick<CompiledQuery, 'sql' | 'parameters'>) =>
  query.parameters.length === 0 &&
  /^\s*(select|with)\b/i.test(query.sql) &&
  query.sql.includes(REUSABLE_PLAN_MARK);
