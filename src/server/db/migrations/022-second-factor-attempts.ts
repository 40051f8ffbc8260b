import { type Kysely, sql } from 'kysely';

/**
 * Wrong second-factor answers are counted in `login_throttle` under `second-factor:<user id>`, beside the
 * password keys, by the one rule of `auth/attempt-limits.ts` (issue #33: an attempt is taken before the
 * check). A streak or lock in force when this runs moves there; `second_factor_throttle` goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into login_throttle (key, failures, window_started_at, locked_until)
    select 'second-factor:' || user_id::text, failures, window_started_at, locked_until
    from second_factor_throttle
    on conflict (key) do nothing`.execute(db);
  await sql`drop table second_factor_throttle`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table second_factor_throttle (
      user_id uuid primary key references users (id) on delete cascade,
      failures integer not null check (failures >= 0),
      window_started_at timestamptz not null,
      locked_until timestamptz
    )`.execute(db);
  await sql`
    insert into second_factor_throttle (user_id, failures, window_started_at, locked_until)
    select substr(key, length('second-factor:') + 1)::uuid, failures, window_started_at, locked_until
    from login_throttle where key like 'second-factor:%'`.execute(db);
  await sql`delete from login_throttle where key like 'second-factor:%'`.execute(db);
}
