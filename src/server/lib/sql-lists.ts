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
