import { type Kysely, sql } from 'kysely';

/**
 * The borrower's messages of a change (issue #36, docs/decisions/041) go through the payment reminders'
 * outbox (migration 009): one table, one sender, the same exactly-once. A message row is written in the
 * transaction of the change; it has no instalment, amount or loan of its own (a complaint may concern no
 * loan), so those become optional for it; `borrower_id` says whose it is. The one-a-day key stays for
 * reminders only. `users.optional_sms`: the borrower still wants the messages they may turn off.
 */
const reminderKinds = sql`('before_due', 'due', 'overdue')`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table loan_reminders add column borrower_id uuid references users (id)`.execute(db);
  await sql`
    update loan_reminders r set borrower_id = a.borrower_id
    from applications a where a.id = r.application_id`.execute(db);
  await sql`
    alter table loan_reminders
      alter column borrower_id set not null,
      alter column application_id drop not null,
      alter column due_date drop not null,
      alter column amount drop not null,
      drop constraint loan_reminders_kind_check,
      add constraint loan_reminders_kind check (kind in (
        'before_due', 'due', 'overdue',
        'application_approved', 'application_declined', 'payout_paid', 'payout_failed', 'terms_proposed',
        'payment_received', 'payment_reversed', 'loan_closed', 'complaint_reply', 'complaint_resolved')),
      add constraint loan_reminders_reminder_facts check (
        kind not in ${reminderKinds}
        or (application_id is not null and due_date is not null and amount is not null))`.execute(db);
  await sql`drop index loan_reminders_one_a_day`.execute(db);
  await sql`
    create unique index loan_reminders_one_a_day on loan_reminders (application_id, reminder_day)
    where kind in ${reminderKinds}`.execute(db);
  await sql`create index loan_reminders_borrower_idx on loan_reminders (borrower_id)`.execute(db);
  await sql`alter table users add column optional_sms boolean not null default true`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users drop column optional_sms`.execute(db);
  await sql`delete from loan_reminders where kind not in ${reminderKinds}`.execute(db);
  await sql`drop index loan_reminders_borrower_idx`.execute(db);
  await sql`drop index loan_reminders_one_a_day`.execute(db);
  await sql`
    create unique index loan_reminders_one_a_day on loan_reminders (application_id, reminder_day)`.execute(
    db,
  );
  await sql`
    alter table loan_reminders
      drop constraint loan_reminders_reminder_facts,
      drop constraint loan_reminders_kind,
      add constraint loan_reminders_kind_check check (kind in ${reminderKinds}),
      alter column application_id set not null,
      alter column due_date set not null,
      alter column amount set not null,
      drop column borrower_id`.execute(db);
}
