import { type Kysely, sql } from 'kysely';

/**
 * Money coming back (issue #10, docs/decisions/010). Only records are stored: a repayment is never edited or
 * deleted, a mistake is undone by a reversal record with a reason. The schedule, allocations, overdue and
 * payoff are derived from these rows and the paid disbursements.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table repayments (
      id uuid primary key default gen_random_uuid(),
      application_id uuid not null references applications (id),
      amount bigint not null check (amount > 0),
      received_on date not null,
      channel text not null,
      reference text not null,
      source text not null check (source in ('staff', 'webhook')),
      recorded_by uuid references users (id),
      created_at timestamptz not null default now(),
      constraint repayments_recorded_by check (source = 'webhook' or recorded_by is not null)
    )`.execute(db);
  // One payment, one record: the same reference on the same channel is the same money.
  await sql`create unique index repayments_channel_reference on repayments (channel, reference)`.execute(db);
  await sql`create index repayments_application_idx on repayments (application_id, created_at)`.execute(db);
  await sql`
    create trigger repayments_append_only before update or delete on repayments
    for each row execute function audit_events_append_only()`.execute(db);
  await sql`
    create trigger repayments_no_truncate before truncate on repayments
    for each statement execute function audit_events_append_only()`.execute(db);

  await sql`
    create table repayment_reversals (
      repayment_id uuid primary key references repayments (id),
      reason text not null check (length(reason) > 0),
      reversed_by uuid not null references users (id),
      created_at timestamptz not null default now()
    )`.execute(db);
  await sql`
    create trigger repayment_reversals_append_only before update or delete on repayment_reversals
    for each row execute function audit_events_append_only()`.execute(db);
  await sql`
    create trigger repayment_reversals_no_truncate before truncate on repayment_reversals
    for each statement execute function audit_events_append_only()`.execute(db);

  // When the loan was paid off (null while it runs, again null once a reversal reopens it).
  await sql`alter table applications add column closed_at timestamptz`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table applications drop column closed_at`.execute(db);
  await sql`drop table repayment_reversals, repayments`.execute(db);
}
