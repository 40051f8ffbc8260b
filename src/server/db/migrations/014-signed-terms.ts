import { type Kysely, sql } from 'kysely';

/**
 * Signed terms bind, and four-eyes approval (issue #14, docs/decisions/018).
 * - The signature keeps where it was made: the signer's address and user agent.
 * - A first approval of an amount above the four-eyes threshold is kept on the application (who, when, the
 *   credit score entered) until a second staff member confirms it; the status stays `pending`.
 * - `terms_changes`: every change to a signed application's or loan's terms, with the disclosure it would
 *   bind. A staff change waits as `proposed` until the borrower accepts (with a code) or declines, or staff
 *   withdraw it; a reduction the borrower asked for is `applied` at once. At most one is proposed at a time.
 * - Verification codes get the purpose `terms_change` (added to whatever purposes the check allows now).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    alter table applications
      add column signed_ip text,
      add column signed_user_agent text,
      add column first_approved_by uuid references users (id),
      add column first_approved_at timestamptz,
      add column first_approval_credit_score integer check (first_approval_credit_score >= 0)`.execute(db);

  await sql`
    create table terms_changes (
      id uuid primary key default gen_random_uuid(),
      application_id uuid not null references applications (id),
      stage text not null check (stage in ('pending', 'approved')),
      status text not null default 'proposed'
        check (status in ('proposed', 'accepted', 'declined', 'withdrawn', 'applied')),
      proposed_by uuid not null references users (id),
      reason text,
      previous_amount bigint not null check (previous_amount > 0),
      previous_term_months integer not null check (previous_term_months > 0),
      previous_disclosure jsonb not null,
      amount bigint not null check (amount > 0),
      term_months integer not null check (term_months > 0),
      monthly_payment bigint not null check (monthly_payment > 0),
      disclosure jsonb not null,
      disclosure_sha256 text not null,
      created_at timestamptz not null default now(),
      decided_at timestamptz,
      decided_by uuid references users (id),
      decided_ip text,
      decided_user_agent text
    )`.execute(db);
  await sql`create unique index terms_changes_one_proposed on terms_changes (application_id) where status = 'proposed'`.execute(
    db,
  );
  await sql`create index terms_changes_application_idx on terms_changes (application_id, created_at)`.execute(
    db,
  );

  // Extend the purposes the codes table allows with 'terms_change', keeping any another migration added.
  const purposes = new Set(['terms_change']);
  for (const row of await purposeChecks(db)) {
    for (const match of row.def.matchAll(/'([a-z_]+)'/g)) purposes.add(match[1]!);
    await sql`alter table verification_codes drop constraint ${sql.id(row.name)}`.execute(db);
  }
  const list = sql.join([...purposes].sort().map((p) => sql.lit(p)));
  await sql`alter table verification_codes add constraint verification_codes_purpose_check check (purpose in (${list}))`.execute(
    db,
  );
}

/** The check constraints on the codes' purpose (their names and definitions, which list the purposes allowed). */
async function purposeChecks(db: Kysely<unknown>) {
  const found = await sql<{ name: string; def: string }>`
    select conname as name, pg_get_constraintdef(oid) as def from pg_constraint
    where conrelid = 'verification_codes'::regclass and contype = 'c' and pg_get_constraintdef(oid) like '%purpose%'`.execute(
    db,
  );
  return found.rows;
}

export async function down(db: Kysely<unknown>): Promise<void> {
  // The codes for accepting new terms go with the terms they were for, and so does their purpose.
  await sql`delete from verification_codes where purpose = 'terms_change'`.execute(db);
  const purposes = new Set<string>();
  for (const row of await purposeChecks(db)) {
    for (const match of row.def.matchAll(/'([a-z_]+)'/g)) purposes.add(match[1]!);
    await sql`alter table verification_codes drop constraint ${sql.id(row.name)}`.execute(db);
  }
  purposes.delete('terms_change');
  const list = sql.join([...purposes].sort().map((p) => sql.lit(p)));
  await sql`alter table verification_codes add constraint verification_codes_purpose_check check (purpose in (${list}))`.execute(
    db,
  );
  await sql`drop table terms_changes`.execute(db);
  await sql`
    alter table applications
      drop column signed_ip, drop column signed_user_agent, drop column first_approved_by,
      drop column first_approved_at, drop column first_approval_credit_score`.execute(db);
}
