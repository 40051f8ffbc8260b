import { type Kysely, sql } from 'kysely';

/**
 * Abuse ceilings kept in the database so they hold across instances (issue #15): one counter row per key
 * (e.g. "codes:ip:203.0.113.7", "codes:global") and fixed one-hour window. A request takes a slot with one
 * `insert … on conflict … do update … returning`, so concurrent requests cannot both take the last slot.
 * Old windows are pruned with the other expired rows.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table rate_limit_counters (
      key text not null,
      window_start timestamptz not null,
      count integer not null check (count > 0),
      primary key (key, window_start)
    )`.execute(db);
  await sql`create index rate_limit_counters_window_idx on rate_limit_counters (window_start)`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table rate_limit_counters`.execute(db);
}
