import { type Kysely, sql } from 'kysely';

/**
 * Each instance keeps a just-read session for a moment (docs/decisions/027). Whatever changes what a session
 * lookup reads (the user's row, the session's own row apart from its last-seen time, the second factors)
 * tells every instance listening on `hiram_sessions` whose sessions to read again: the payload is the user's
 * id. Triggers, so that no write path can forget it: the app's use cases, a scheduled job, another instance,
 * an operator's SQL. A notification leaves at commit, and only if the transaction commits.
 */

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function hiram_notify_session_user() returns trigger language plpgsql as $$
    begin
      if tg_op = 'DELETE' then
        perform pg_notify('hiram_sessions', old.id::text);
      else
        perform pg_notify('hiram_sessions', new.id::text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger users_session_change after update or delete on users
    for each row execute function hiram_notify_session_user()`.execute(db);

  // Tables keyed to a user by user_id. A session's last-seen time moves once a minute per active browser and
  // changes nothing a lookup decides on: not announced.
  await sql`
    create function hiram_notify_session_owner() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and tg_table_name = 'sessions'
        and (to_jsonb(old) - 'last_seen_at') = (to_jsonb(new) - 'last_seen_at') then
        return null;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        perform pg_notify('hiram_sessions', old.user_id::text);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform pg_notify('hiram_sessions', new.user_id::text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`
    create trigger sessions_session_change after update or delete on sessions
    for each row execute function hiram_notify_session_owner()`.execute(db);
  for (const table of ['user_totp', 'user_passkeys']) {
    await sql`
      create trigger ${sql.id(`${table}_session_change`)} after insert or update or delete on ${sql.table(table)}
      for each row execute function hiram_notify_session_owner()`.execute(db);
  }

  // TRUNCATE fires no row trigger: an empty payload means "anyone's sessions".
  await sql`
    create function hiram_notify_sessions_truncated() returns trigger language plpgsql as $$
    begin
      perform pg_notify('hiram_sessions', '');
      return null;
    end $$`.execute(db);
  for (const table of TABLES) {
    await sql`
      create trigger ${sql.id(`${table}_sessions_truncated`)} after truncate on ${sql.table(table)}
      for each statement execute function hiram_notify_sessions_truncated()`.execute(db);
  }
}

const TABLES = ['users', 'sessions', 'user_totp', 'user_passkeys'];

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of TABLES) {
    await sql`drop trigger ${sql.id(`${table}_sessions_truncated`)} on ${sql.table(table)}`.execute(db);
  }
  await sql`drop function hiram_notify_sessions_truncated()`.execute(db);
  await sql`drop trigger user_passkeys_session_change on user_passkeys`.execute(db);
  await sql`drop trigger user_totp_session_change on user_totp`.execute(db);
  await sql`drop trigger sessions_session_change on sessions`.execute(db);
  await sql`drop function hiram_notify_session_owner()`.execute(db);
  await sql`drop trigger users_session_change on users`.execute(db);
  await sql`drop function hiram_notify_session_user()`.execute(db);
}
