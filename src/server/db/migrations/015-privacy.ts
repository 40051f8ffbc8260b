import { type Kysely, sql } from 'kysely';

/**
 * Borrower rights (issue #14, docs/decisions/019): the privacy notice each user accepted (one row per
 * consent, kept as history; the user row holds the latest version for the per-request check), account
 * closures with the civil date personal data is anonymised on, and what anonymisation needs on the rows it
 * rewrites (a user without phone or username once anonymised; a document whose file was erased).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table consents (
      id uuid primary key default gen_random_uuid(),
      user_id uuid not null references users (id),
      notice_version text not null check (length(notice_version) between 1 and 64),
      context text not null check (context in ('signup', 'reconsent')),
      consented_at timestamptz not null default now(),
      ip text,
      user_agent text
    )`.execute(db);
  await sql`create index consents_user_idx on consents (user_id, consented_at desc)`.execute(db);

  await sql`alter table users add column privacy_notice_version text`.execute(db);
  await sql`alter table users add column anonymised_at timestamptz`.execute(db);
  // An anonymised borrower keeps no phone (and no username); every other user still needs one.
  await sql`alter table users drop constraint users_borrower_has_phone`.execute(db);
  await sql`alter table users drop constraint users_has_identifier`.execute(db);
  await sql`
    alter table users add constraint users_borrower_has_phone
    check (role <> 'borrower' or phone is not null or anonymised_at is not null)`.execute(db);
  await sql`
    alter table users add constraint users_has_identifier
    check (phone is not null or username is not null or anonymised_at is not null)`.execute(db);

  await sql`
    create table account_closures (
      user_id uuid primary key references users (id),
      requested_at timestamptz not null default now(),
      ip text,
      user_agent text,
      -- A civil date in the lender's time zone, 'YYYY-MM-DD' (as the stored loan facts keep theirs).
      anonymise_on text not null check (anonymise_on ~ '^[0-9]{4}-[0-9]{2}-[0-9]{2}$'),
      anonymised_at timestamptz
    )`.execute(db);
  await sql`create index account_closures_requested_idx on account_closures (requested_at desc)`.execute(db);
  await sql`
    create index account_closures_due_idx on account_closures (anonymise_on)
    where anonymised_at is null`.execute(db);

  await sql`alter table documents add column erased_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table documents drop column erased_at`.execute(db);
  await sql`drop table account_closures, consents`.execute(db);
  await sql`alter table users drop constraint users_borrower_has_phone`.execute(db);
  await sql`alter table users drop constraint users_has_identifier`.execute(db);
  await sql`
    alter table users add constraint users_borrower_has_phone
    check (role <> 'borrower' or phone is not null)`.execute(db);
  await sql`
    alter table users add constraint users_has_identifier
    check (phone is not null or username is not null)`.execute(db);
  await sql`alter table users drop column privacy_notice_version, drop column anonymised_at`.execute(db);
}
