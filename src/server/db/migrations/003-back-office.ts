import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Trigram indexes keep "name contains" and "phone contains" searches index-backed at any size.
  await sql`create extension if not exists pg_trgm`.execute(db);
  await sql`create index applications_full_name_trgm on applications using gin (lower(full_name) gin_trgm_ops)`.execute(
    db,
  );
  await sql`create index applications_phone_trgm on applications using gin (phone gin_trgm_ops)`.execute(db);
  await sql`create index applications_status_decided_idx on applications (status, decided_at desc)`.execute(
    db,
  );
  await sql`create index applications_submitted_idx on applications (submitted_at)`.execute(db);

  // Append-only record of every staff write: who, role, what, before/after, reason, when, from where.
  await sql`
    create table audit_events (
      id bigint generated always as identity primary key,
      at timestamptz not null default now(),
      actor_id uuid references users (id),
      actor_username text,
      actor_role text not null,
      action text not null,
      target_type text not null,
      target_id text not null,
      loan_id uuid references applications (id),
      changes jsonb not null default '{}'::jsonb,
      reason text,
      ip text
    )`.execute(db);
  await sql`create index audit_events_at_idx on audit_events (at desc)`.execute(db);
  await sql`create index audit_events_actor_idx on audit_events (actor_id, at desc)`.execute(db);
  await sql`create index audit_events_action_idx on audit_events (action, at desc)`.execute(db);
  await sql`create index audit_events_loan_idx on audit_events (loan_id, at desc)`.execute(db);
  await sql`
    create function audit_events_append_only() returns trigger language plpgsql as $$
    begin
      raise exception 'audit_events is append-only: % is not allowed', tg_op using errcode = 'insufficient_privilege';
    end
    $$`.execute(db);
  await sql`
    create trigger audit_events_no_update_delete before update or delete on audit_events
    for each row execute function audit_events_append_only()`.execute(db);
  await sql`
    create trigger audit_events_no_truncate before truncate on audit_events
    for each statement execute function audit_events_append_only()`.execute(db);

  // What the borrower is told about changes to their application or loan, newest first.
  await sql`
    create table borrower_events (
      id bigint generated always as identity primary key,
      borrower_id uuid not null references users (id),
      application_id uuid references applications (id),
      kind text not null,
      message text,
      data jsonb not null default '{}'::jsonb,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index borrower_events_borrower_idx on borrower_events (borrower_id, created_at desc)`.execute(
    db,
  );

  // Money out: one row per withdrawal request; never deleted, only moved requested → paid | failed.
  await sql`
    create table disbursements (
      id uuid primary key default gen_random_uuid(),
      application_id uuid not null references applications (id),
      amount bigint not null check (amount > 0),
      bank_name text not null,
      account_number text not null,
      status text not null default 'requested' check (status in ('requested', 'paid', 'failed')),
      requested_at timestamptz not null default now(),
      code_verified boolean not null,
      idempotency_key text,
      decided_at timestamptz,
      decided_by uuid references users (id),
      reference text,
      failure_reason text,
      constraint disbursements_decision check (
        (status = 'requested' and decided_at is null) or
        (status = 'paid' and decided_at is not null and reference is not null) or
        (status = 'failed' and decided_at is not null and failure_reason is not null)
      )
    )`.execute(db);
  await sql`create index disbursements_application_idx on disbursements (application_id, requested_at desc)`.execute(
    db,
  );
  await sql`create index disbursements_status_idx on disbursements (status, requested_at desc)`.execute(db);
  await sql`create index disbursements_decided_idx on disbursements (decided_at) where status = 'paid'`.execute(
    db,
  );
  await sql`
    create unique index disbursements_idempotency_key on disbursements (application_id, idempotency_key)
    where idempotency_key is not null`.execute(db);
  await sql`
    create trigger disbursements_no_delete before delete on disbursements
    for each row execute function audit_events_append_only()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table disbursements, borrower_events, audit_events`.execute(db);
  // The applications table is 001's: only the indexes made here go (pg_trgm stays, as an extension may).
  await sql`
    drop index applications_full_name_trgm, applications_phone_trgm, applications_status_decided_idx,
      applications_submitted_idx`.execute(db);
  await sql`drop function audit_events_append_only`.execute(db);
}
