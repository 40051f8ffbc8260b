import { type Kysely, sql } from 'kysely';

/**
 * Deleting a session that has already expired changes nothing a session cache could answer with: a cached
 * lookup is never used past the end the database gave it (docs/decisions/027). So the hourly prune of expired
 * sessions no longer announces each of them to every instance (one notice per row made every instance drop
 * those users' entries and throw away every lookup under way). Any other change is announced as before.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
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
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`
    create or replace function hiram_notify_session_owner() returns trigger language plpgsql as $$
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
}
