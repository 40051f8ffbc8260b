import { type Kysely, sql } from 'kysely';

/**
 * Payment reminders by SMS (issue #10, docs/decisions/013). A row is both the record of the reminder and
 * its outbox entry: it is committed in the transaction that decides it (with the borrower's history event),
 * and a sender delivers committed rows and marks them sent. One reminder a day per loan, enforced here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    create table loan_reminders (
      id uuid primary key default gen_random_uuid(),
      application_id uuid not null references applications (id),
      kind text not null check (kind in ('before_due', 'due', 'overdue')),
      due_date date not null,
      reminder_day date not null,
      phone text not null,
      amount bigint not null check (amount > 0),
      text text not null,
      status text not null default 'pending'
        check (status in ('pending', 'sending', 'sent', 'failed', 'expired')),
      attempts integer not null default 0,
      claimed_at timestamptz,
      sent_at timestamptz,
      last_error text,
      created_at timestamptz not null default now(),
      constraint loan_reminders_sent check ((status = 'sent') = (sent_at is not null))
    )`.execute(db);
  // At most one message a day per loan (the lender's civil day), whatever runs where.
  await sql`
    create unique index loan_reminders_one_a_day on loan_reminders (application_id, reminder_day)`.execute(
    db,
  );
  // The sender's queue: only undelivered rows.
  await sql`
    create index loan_reminders_outbox_idx on loan_reminders (reminder_day, created_at)
    where status in ('pending', 'sending')`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table loan_reminders`.execute(db);
}
