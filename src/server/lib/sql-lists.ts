import { type RawBuilder, sql } from 'kysely';

/**
 * `'a', 'b', …` as SQL literals, for a set of statuses the domain owns (e.g. `runningStatuses`) used in a
 * hand-written statement. Literals rather than parameters keep the statement text constant, so partial
 * indexes and plans match exactly as if the list were typed in. Only for code constants, never user input.
 */
export function sqlList(values: readonly string[]): RawBuilder<unknown> {
  if (values.length === 0) throw new Error('an SQL list needs at least one value');
  return sql.join(values.map((value) => sql.lit(value)));
}

/**
 * Whether two status sets are the same list, in the same order: a list's statuses are written into its
 * statements as literals (`sqlList`), so a partial index or a counted queue matches only the same text.
 */
export const sameList = (a: readonly string[], b: readonly string[]) => a.join() === b.join();

/**
 * A calendar day the server computed (today in the configured zone, a bucket's bounds) as a `date` literal,
 * so that a statement built on it sends no parameter and PGlite can keep its plan (docs/decisions/028).
 * Checked to be `YYYY-MM-DD`: never for user input.
 */
export function dateLiteral(day: string): RawBuilder<string> {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(day)) throw new Error(`not a calendar day: ${day}`);
  return sql<string>`${sql.lit(day)}::date`;
}

/** A row count written into a statement's text (our own arithmetic on a validated page number), as above. */
export function rowCount(n: number): RawBuilder<number> {
  if (!Number.isSafeInteger(n) || n < 0) throw new Error(`not a row count: ${n}`);
  return sql<number>`${sql.lit(n)}`;
}
