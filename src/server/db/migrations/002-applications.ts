import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table documents (
      id uuid primary key default gen_random_uuid(),
      owner_id uuid not null references users (id),
      application_id uuid not null,
      kind text not null check (kind in ('id_front', 'id_back', 'selfie', 'signature')),
      content_type text not null check (content_type in ('image/jpeg', 'image/png')),
      size integer not null check (size > 0),
      width integer not null,
      height integer not null,
      sha256 text not null,
      storage_key text not null unique,
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`create index documents_owner_idx on documents (owner_id)`.execute(db);
  await sql`create index documents_application_idx on documents (application_id)`.execute(db);

  await sql`create sequence loan_number_seq start 1`.execute(db);

  // One record through its whole life: application, then loan. Money in minor units (centavos).
  await sql`
    create table applications (
      id uuid primary key,
      loan_number text not null unique,
      borrower_id uuid not null references users (id),
      phone text not null check (phone ~ '^[0-9]{10,15}$'),
      full_name text not null,
      id_number text not null,
      amount bigint not null check (amount > 0),
      term_months integer not null check (term_months > 0),
      monthly_rate_bp integer not null check (monthly_rate_bp >= 0),
      monthly_payment bigint not null check (monthly_payment > 0),
      company_name text not null,
      position text not null,
      income bigint not null check (income >= 0),
      monthly_expense bigint not null check (monthly_expense >= 0),
      address text not null,
      email text,
      contact_name text not null,
      contact_phone text not null,
      contact_address text not null,
      contact_relation text not null check (contact_relation in ('partner', 'parent', 'friend', 'relative', 'sibling')),
      bank_name text not null,
      account_number text not null check (account_number ~ '^[0-9]{1,34}$'),
      doc_id_front uuid not null references documents (id),
      doc_id_back uuid not null references documents (id),
      doc_selfie uuid not null references documents (id),
      doc_signature uuid not null references documents (id),
      disclosure jsonb not null,
      disclosure_sha256 text not null,
      status text not null default 'pending' check (status in ('pending', 'approved', 'rejected', 'on_hold', 'closed')),
      status_message text,
      credit_score integer check (credit_score >= 0),
      submitted_at timestamptz not null default now(),
      decided_at timestamptz,
      decided_by uuid references users (id),
      reject_reason text,
      approved_amount bigint check (approved_amount > 0)
    )`.execute(db);
  // At most one open application or active loan per borrower, enforced by the database itself.
  await sql`
    create unique index applications_one_open_per_borrower on applications (borrower_id)
    where status in ('pending', 'approved', 'on_hold')`.execute(db);
  await sql`create index applications_borrower_idx on applications (borrower_id, submitted_at desc)`.execute(
    db,
  );
  await sql`create index applications_status_submitted_idx on applications (status, submitted_at desc)`.execute(
    db,
  );
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table applications, documents`.execute(db);
  await sql`drop sequence loan_number_seq`.execute(db);
}
