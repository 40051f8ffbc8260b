import { type Kysely, sql } from 'kysely';

// Raw SQL keeps the migration identical on PGlite and PostgreSQL and readable to a DBA.
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table users (
      id uuid primary key default gen_random_uuid(),
      username text,
      phone text,
      password_hash text not null,
      role text not null check (role in ('borrower', 'officer', 'finance', 'admin')),
      status text not null default 'active' check (status in ('active', 'deactivated')),
      must_change_password boolean not null default false,
      avatar smallint not null default 1 check (avatar between 1 and 5),
      created_at timestamptz not null default now(),
      last_login_at timestamptz,
      constraint users_phone_digits check (phone ~ '^[0-9]{10,15}$'),
      -- Borrowers sign in and receive codes by phone; staff may be created by username alone.
      constraint users_borrower_has_phone check (role <> 'borrower' or phone is not null),
      constraint users_has_identifier check (phone is not null or username is not null),
      constraint users_username_shape check (username is null or (username ~ '^[A-Za-z0-9_.-]{3,32}$' and username ~ '[A-Za-z]')),
      constraint users_hash_not_plain check (password_hash like '$argon2id$%')
    )`.execute(db);
  await sql`create unique index users_phone_key on users (phone)`.execute(db);
  await sql`create unique index users_username_key on users (lower(username))`.execute(db);
  await sql`create index users_created_at_idx on users (created_at)`.execute(db);

  await sql`
    create table sessions (
      id_hash text primary key,
      user_id uuid not null references users (id) on delete cascade,
      csrf_token text not null,
      created_at timestamptz not null default now(),
      last_seen_at timestamptz not null default now(),
      expires_at timestamptz not null,
      ip text,
      user_agent text
    )`.execute(db);
  await sql`create index sessions_user_id_idx on sessions (user_id)`.execute(db);
  await sql`create index sessions_expires_at_idx on sessions (expires_at)`.execute(db);

  await sql`
    create table verification_codes (
      id uuid primary key default gen_random_uuid(),
      phone text not null,
      purpose text not null check (purpose in ('signup', 'withdrawal')),
      code_hash text not null,
      context text not null default '',
      created_at timestamptz not null default now(),
      expires_at timestamptz not null,
      attempts integer not null default 0 check (attempts >= 0),
      used_at timestamptz
    )`.execute(db);
  await sql`create index verification_codes_lookup_idx on verification_codes (phone, purpose, created_at desc)`.execute(
    db,
  );

  await sql`
    create table login_throttle (
      key text primary key,
      failures integer not null,
      window_started_at timestamptz not null,
      locked_until timestamptz
    )`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table login_throttle, verification_codes, sessions, users`.execute(db);
}
