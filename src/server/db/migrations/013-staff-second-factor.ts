import { type Kysely, sql } from 'kysely';

/**
 * Staff sign-in (issue #15, docs/decisions/017): TOTP secrets (encrypted), single-use recovery codes (keyed
 * hashes), passkeys, a per-user limit on failed second-factor attempts, and on each session whether the second
 * factor is still owed, how long it may idle, and the WebAuthn challenge it is answering.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table user_totp (
      user_id uuid primary key references users (id) on delete cascade,
      secret_encrypted text not null,
      confirmed_at timestamptz,
      last_used_step bigint,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create table user_recovery_codes (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id) on delete cascade,
      code_hash text not null,
      used_at timestamptz,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index user_recovery_codes_user_idx on user_recovery_codes (user_id)`.execute(db);
  await sql`
    create table user_passkeys (
      id text primary key,
      user_id uuid not null references users (id) on delete cascade,
      public_key text not null,
      counter bigint not null default 0,
      transports text not null default '',
      name text not null,
      created_at timestamptz not null default now(),
      last_used_at timestamptz
    )`.execute(db);
  await sql`create index user_passkeys_user_idx on user_passkeys (user_id)`.execute(db);
  await sql`
    create table second_factor_throttle (
      user_id uuid primary key references users (id) on delete cascade,
      failures integer not null check (failures >= 0),
      window_started_at timestamptz not null,
      locked_until timestamptz
    )`.execute(db);
  await sql`alter table sessions add column second_factor_pending boolean not null default false`.execute(db);
  await sql`alter table sessions add column idle_minutes integer`.execute(db);
  await sql`alter table sessions add column webauthn_challenge text`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table sessions drop column webauthn_challenge`.execute(db);
  await sql`alter table sessions drop column idle_minutes`.execute(db);
  await sql`alter table sessions drop column second_factor_pending`.execute(db);
  await sql`drop table second_factor_throttle, user_passkeys, user_recovery_codes, user_totp`.execute(db);
}
