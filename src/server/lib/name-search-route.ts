import { type Kysely, sql } from 'kysely';
import type { Database } from '../db/schema';

/**
 * Names repeat at least this many times on average before a name search starts from the distinct names.
 * Measured at 1 M applications (docs/decisions/066): with 2,500 applications a name (the bench's seed) the
 * names route is 2–5× faster, with 8 a name 1.5–3×; with every name its own (1 a name) it is 3–6× slower than
 * the queue's own trigram index, since it then probes the queue's name index once for every matching name.
 */
export const MIN_APPLICATIONS_PER_NAME = 3;

/** Whether names repeat enough, from row counts (the planner's estimates: -1 or 0 when never counted). */
export function namesRepeatEnough(applications: number, names: number): boolean {
  return applications > 0 && names > 0 && applications / names >= MIN_APPLICATIONS_PER_NAME;
}

/**
 * Which way this instance's name searches find their rows (docs/decisions/065, 066): from the borrowers'
 * distinct names where names repeat enough, else from the queue's own trigram indexes, as before migration
 * 042. Decided from PostgreSQL's row estimates of the two tables (`pg_class.reltuples`, kept by ANALYZE and
 * autovacuum: no scan), read again at most every `ttlMs`. Both ways find the same rows; only the cost
 * differs. Where the tables were never analysed (a new database, PGlite without autovacuum) the estimates
 * say nothing, and searches keep the rows' own indexes.
 */
export class NameSearchRoute {
  #decided: { byNames: boolean; until: number } | undefined;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly options: { forced?: boolean; ttlMs?: number; now?: () => number } = {},
  ) {}

  /** Whether a search for `query` goes by the names: one with a name, where names repeat. */
  async searchesByNames(query: { name: string }): Promise<boolean> {
    return query.name !== '' && (await this.byNames());
  }

  async byNames(): Promise<boolean> {
    if (this.options.forced !== undefined) return this.options.forced;
    const now = (this.options.now ?? Date.now)();
    if (this.#decided && this.#decided.until > now) return this.#decided.byNames;
    const { rows } = await sql<{ applications: number; names: number }>`
      select (select reltuples from pg_class where oid = 'applications'::regclass)::float8 as applications,
             (select reltuples from pg_class where oid = 'borrower_names'::regclass)::float8 as names`.execute(
      this.db,
    );
    const byNames = namesRepeatEnough(Number(rows[0]?.applications), Number(rows[0]?.names));
    this.#decided = { byNames, until: now + (this.options.ttlMs ?? 10 * 60_000) };
    return byNames;
  }
}
