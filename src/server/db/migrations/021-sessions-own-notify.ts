import { type Kysely, sql } from 'kysely';

/**
 * The `sessions` trigger gets a function of its own (docs/decisions/027). Until now one function served
 * `sessions`, `user_totp` and `user_passkeys` and branched on `tg_table_name`, with a nested test because
 * PL/pgSQL looks a field up when it prepares an expression, so `old.expires_at` could not appear where the
 * second-factor tables run. Each function now reads only its own table's fields; what is announced is
 * unchanged: a session's last-seen time alone and the deletion of an already expired session are not.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create function hiram_notify_session_row() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and (to_jsonb(old) - 'last_seen_at') = (to_jsonb(new) - 'last_seen_at') then
        return null;
      end if;
      if tg_op = 'DELETE' and old.expires_at <= now() then
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
  await sql`drop trigger sessions_session_change on sessions`.execute(db);
  await sql`
    create trigger sessions_session_change after update or delete on sessions
    for each row execute function hiram_notify_session_row()`.execute(db);
  // What is left serves user_totp and user_passkeys: every change is announced.
  await sql`
    create or replace function hiram_notify_session_owner() returns trigger language plpgsql as $$
    begin
      if tg_op in ('UPDATE', 'DELETE') then
        perform pg_notify('hiram_sessions', old.user_id::text);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform pg_notify('hiram_sessions', new.user_id::text);
      end if;
      return null;
    end $$`.execute(db);
}

/** Back to migration 019's shared function, exactly as it installed it. */
export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function hiram_notify_session_owner() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and tg_table_name = 'sessions'
        and (to_jsonb(old) - 'last_seen_at') = (to_jsonb(new) - 'last_seen_at') then
        return null;
      end if;
      -- Nested: the same function serves user_totp and user_passkeys, which have no expires_at, and
      -- PL/pgSQL looks a field up when it prepares the expression, whatever the conditions before it say.
      if tg_op = 'DELETE' and tg_table_name = 'sessions' then
        if old.expires_at <= now() then
          return null;
        end if;
      end if;
      if tg_op in ('UPDATE', 'DELETE') then
        perform pg_notify('hiram_sessions', old.user_id::text);
      end if;
      if tg_op in ('INSERT', 'UPDATE') then
        perform pg_notify('hiram_sessions', new.user_id::text);
      end if;
      return null;
    end $$`.execute(db);
  await sql`drop trigger sessions_session_change on sessions`.execute(db);
  await sql`
    create trigger sessions_session_change after update or delete on sessions
    for each row execute function hiram_notify_session_owner()`.execute(db);
  await sql`drop function hiram_notify_session_row()`.execute(db);
}
